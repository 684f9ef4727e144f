// What the stream sent, remembered across restarts: each send is a journal line, folded into the file once
// the journal outgrows it; a restart reads both, a line cut by a crash is ignored, and a file written by
// an earlier build (the whole memory, no journal) is still read.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SentMemory } from '../../server/otlp/memory.ts';
import { tempDir } from '../support/fixtures.ts';

const memory = suite('otlp sent memory');
const dir = tempDir('engine-sent-memory-');
memory.after(() => dir.cleanup());

const loaded = async (file: string) => {
  const m = new SentMemory(file);
  await m.load();
  return m;
};

memory('sends are journaled and read back; the latest stamp of a log wins', async () => {
  const file = join(dir.dir, 'cache', 'a.json');
  const m = await loaded(file);
  m.remember('logs/a.jsonl', '1:1');
  m.remember('logs/b.jsonl', '2:2');
  await m.flush();
  m.remember('logs/a.jsonl', '3:3');
  await m.flush();
  assert.ok(existsSync(`${file}.log`), 'a journal beside the file');
  assert.not.ok(existsSync(file), 'three lines are not folded into a whole file');
  const again = await loaded(file);
  assert.ok(again.has('logs/a.jsonl', '3:3'));
  assert.not.ok(again.has('logs/a.jsonl', '1:1'));
  assert.ok(again.has('logs/b.jsonl', '2:2'));
});

memory('a journal that outgrows the file is folded into it, and nothing is lost', async () => {
  const file = join(dir.dir, 'b.json');
  const m = await loaded(file);
  for (let i = 0; i < 6_000; i++) m.remember(`logs/${i}.jsonl`, `${i}:1`);
  await m.flush();
  assert.not.ok(existsSync(file), 'a journal of one line a session is not folded');
  // Each log sent again: twice as many lines as sessions.
  for (let i = 0; i < 6_000; i++) m.remember(`logs/${i}.jsonl`, `${i}:2`);
  // Remembered while that batch is written: joins the next write.
  const first = m.flush();
  m.remember('logs/late.jsonl', '9:9');
  await Promise.all([first, m.flush()]);
  assert.ok(existsSync(file), 'folded into the file');
  const journal = existsSync(`${file}.log`) ? readFileSync(`${file}.log`, 'utf8') : '';
  assert.ok(journal.split('\n').length <= 2, 'the journal was emptied (the late line may follow)');
  const again = await loaded(file);
  for (const i of [0, 3_000, 5_999]) assert.ok(again.has(`logs/${i}.jsonl`, `${i}:2`));
  assert.ok(again.has('logs/late.jsonl', '9:9'));
});

memory('a log that could not be sent is remembered as such until it is sent or changes', async () => {
  const file = join(dir.dir, 'd.json');
  const m = await loaded(file);
  m.rememberUnsendable('logs/big.jsonl', '7:7');
  await m.flush();
  const again = await loaded(file);
  assert.ok(again.unsendable('logs/big.jsonl', '7:7'));
  assert.not.ok(again.has('logs/big.jsonl', '7:7'), 'not taken for sent');
  assert.not.ok(again.unsendable('logs/big.jsonl', '8:8'), 'a new stamp is tried again');
  again.remember('logs/big.jsonl', '8:8');
  assert.not.ok(again.unsendable('logs/big.jsonl', '7:7'));
});

memory('a line cut by a crash is ignored; an earlier build\'s file is read', async () => {
  const file = join(dir.dir, 'c.json');
  writeFileSync(file, JSON.stringify({ sent: { 'logs/old.jsonl': '5:5' } }));
  appendFileSync(`${file}.log`, `${JSON.stringify(['logs/new.jsonl', '6:6'])}\n["logs/cut.js`);
  const m = await loaded(file);
  assert.ok(m.has('logs/old.jsonl', '5:5'));
  assert.ok(m.has('logs/new.jsonl', '6:6'));
  assert.not.ok(m.has('logs/cut.js', ''));
});

memory('a cache directory other users may write is neither read nor written: the memory is this run\'s alone', async () => {
  const shared = join(dir.dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o777);
  const file = join(shared, 'e.json');
  // What another user left there would say these were sent.
  writeFileSync(`${file}.log`, `${JSON.stringify(['logs/planted.jsonl', '1:1'])}\n`);
  const m = await loaded(file);
  assert.match(m.refused ?? '', /may be written by other users/);
  assert.not.ok(m.has('logs/planted.jsonl', '1:1'), 'the planted line is not read');
  m.remember('logs/a.jsonl', '2:2');
  await m.flush();
  assert.ok(m.has('logs/a.jsonl', '2:2'), 'remembered within the run');
  assert.equal(readdirSync(shared).sort(), ['e.json.log']);
  assert.is(readFileSync(`${file}.log`, 'utf8').split('\n').length, 2, 'nothing appended');
});

memory('a symbolic link put where the journal goes is not written through', async () => {
  const own = join(dir.dir, 'own');
  const file = join(own, 'f.json');
  const m = await loaded(file);
  const victim = join(dir.dir, 'victim.txt');
  writeFileSync(victim, 'untouched\n');
  symlinkSync(victim, `${file}.log`);
  m.remember('logs/a.jsonl', '3:3');
  await m.flush();
  assert.is(readFileSync(victim, 'utf8'), 'untouched\n');
});

memory.run();
