// `console/` is the console's own (trash, jobs): no link inside the data directory brings a file under it
// into reach, whether the link points at `console/` or at an ancestor through which `console/` is reached.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from '../../server/data/catalog.ts';
import { Hub } from '../../server/events/hub.ts';
import { newestLogs } from '../../server/store/head-scan.ts';
import { firstWalk, logAt, namesOf } from '../../server/store/first-walk.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot } from '../support/fixtures.ts';

const test = suite('store: links into console/');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

/** A data directory with a session log under console/ and links to console/ (`cc`) and to logs/ (`up`, whose `../console` is the same). */
function homeWithLinks() {
  const home = copyHome();
  const shop = join(home.dir, 'logs/shop');
  const log = readdirSync(shop).find((n) => n.endsWith('.jsonl') && !n.includes('.flow.') && !n.includes('.confirm.'))!;
  mkdirSync(join(home.dir, 'console/trash/1'), { recursive: true });
  copyFileSync(join(shop, log), join(home.dir, 'console/trash/1/20991231T000000.000Z-1.jsonl'));
  symlinkSync('console', join(home.dir, 'cc'));
  symlinkSync('../console/trash/1/20991231T000000.000Z-1.jsonl', join(home.dir, 'logs/linked.jsonl'));
  mkdirSync(join(home.dir, 'nest'));
  symlinkSync('..', join(home.dir, 'nest/up'));
  return home;
}

const consoleOf = (dir: string) => join(realpathSync(dir), 'console');
const intoConsole = (dir: string) => (path: string) => realpathSync(path).startsWith(consoleOf(dir) + '/');

test('the first walk, the newest logs by name and the one-shot scan keep nothing that resolves into console/', () => {
  const home = homeWithLinks();
  try {
    const walk = firstWalk(home.dir);
    const names = namesOf(walk);
    const walked = Array.from(walk.flags, (_, i) => join(home.dir, logAt(walk, names, i).rel));
    assert.ok(walked.length > 0);
    assert.equal(walked.filter(intoConsole(home.dir)), []);
    const head = newestLogs(home.dir, 64);
    assert.ok(head !== null && head.logs.length > 0);
    assert.equal(head.logs.map((l) => join(home.dir, l.rel)).filter(intoConsole(home.dir)), []);
    assert.equal(buildCatalog(home.dir).sessions.map((f) => f.path).filter(intoConsole(home.dir)), []);
  } finally {
    home.cleanup();
  }
});

test('the store lists no session under console/, at start or when a link to it appears later', async () => {
  const home = homeWithLinks();
  const s = new Store({ dataDir: home.dir, pool, hub: new Hub() });
  try {
    await s.open();
    await s.warm(30_000);
    const listed = () => s.catalog().sessions.map((f) => f.path);
    assert.ok(listed().length > 0);
    assert.equal(listed().filter(intoConsole(home.dir)), []);
    symlinkSync('console', join(home.dir, 'logs/shop/later'));
    symlinkSync('../../console/trash/1/20991231T000000.000Z-1.jsonl', join(home.dir, 'logs/shop/later.jsonl'));
    await s.sync();
    assert.equal(listed().filter(intoConsole(home.dir)), []);
  } finally {
    s.close();
    home.cleanup();
  }
});

test.run();
