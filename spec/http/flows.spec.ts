// The flows API over HTTP on a temp copy of the fixture home: the list (load errors carried, served_by, the
// stage link), one flow at a threshold (flow-show byte for byte, warnings), the diff, the raw download and
// delete, with every error status (400, 404, 422). Flows that do not load never break other requests.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema, OkSchema } from '../../shared/common.ts';
import { FlowDetailSchema, FlowDiffViewSchema, FlowListSchema } from '../../shared/flows.ts';
import { cliTexts, fixtureHome, fixturesDir, referenceDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const flows = suite('flows api');
let c: Launched;
flows.before(async () => {
  c = await launch();
});
flows.after(async () => {
  await c.stop();
});

async function list() {
  const res = await c.api('/api/flows');
  assert.is(res.status, 200);
  return v.parse(FlowListSchema, await res.json()).items;
}

async function detail(key: string, query = '') {
  const res = await c.api(`/api/flows/${key}${query}`);
  assert.is(res.status, 200, `${key}${query}`);
  return v.parse(FlowDetailSchema, await res.json());
}

async function error(path: string, status: number, init?: RequestInit): Promise<string> {
  const res = await c.api(path, init);
  assert.is(res.status, status, path);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

function referenceShopText(): string {
  const page = readFileSync(join(referenceDir, 'flow-review.md'), 'utf8');
  const start = page.indexOf('````markdown\n', page.indexOf('### 4.7'));
  return `${page.slice(start + '````markdown\n'.length, page.indexOf('\n````', start))}\n`;
}

flows('the list has both fixture flows with the reference summary values, newest first', async () => {
  const items = await list();
  const modified = items.map((i) => i.modified_unix_ms);
  assert.equal(modified, [...modified].sort((a, b) => b - a));
  const shop = items.find((i) => i.key === 'shop')!;
  assert.equal(
    [shop.decider, shop.has_arbiter, shop.has_reach, shop.tools, shop.sites, shop.lookups, shop.habit_episodes, shop.sources],
    ['reach', false, true, { read: 3, write: 1, generic: 0 }, 3, 2, 6, ['quickstart']],
  );
  assert.equal([shop.promoted, shop.served_by, shop.stage, shop.error, shop.format_version], [null, ['shop'], null, null, 1]);
  assert.is(shop.path, 'shop.flow.json');
  assert.is(shop.size_bytes, 4923);
  const promoted = items.find((i) => i.key === 'shop.promoted')!;
  assert.equal(promoted.promoted, { sites_promoted: 3, sites_scored: 4 });
  assert.equal(promoted.served_by, []);
  assert.is(promoted.name, 'shop.promoted');
});

flows('the shop detail at the default threshold is the reference view and flow-show text', async () => {
  const d = await detail('shop');
  assert.is(d.threshold, 0.3);
  assert.fixture(d.review_markdown, referenceShopText());
  assert.equal(d.warnings, []);
  assert.equal(
    d.sites.map((s) => s.verdict),
    [
      'looks up `get_user_details` 1.00 × 0.88 = 0.88',
      'looks up `get_order_details` 0.50 × 0.93 = 0.46',
      'looks up `get_order_details` 1.00 × 0.93 = 0.93',
    ],
  );
  assert.equal(d.summary, (await list()).find((i) => i.key === 'shop'));
  assert.is(d.promotion, null);
});

flows('the promoted flow renders its promotion with the spec-era wording', async () => {
  const texts = await cliTexts();
  const d = await detail('shop.promoted', '?threshold=0.3');
  const expected = (texts.shop_promoted_review as string)
    .replaceAll('claude-sonnet-5', 'quickstart')
    .replaceAll('made later in the session', 'made in a later LLM turn');
  assert.fixture(d.review_markdown, expected);
  assert.equal(d.promotion?.bar, { threshold: 0.3, min_used: 0.7, min_lower: 0.5, min_tasks: 3 });
});

flows('a threshold of 0.95 hands back everywhere; outside 0..1 is a 400 checked before the key', async () => {
  const d = await detail('shop', '?threshold=0.95');
  assert.is.not(d.sites.length, 0);
  assert.equal(d.sites.map((s) => s.choice?.acts), d.sites.map(() => false));
  assert.is(await error('/api/flows/shop?threshold=2', 400), 'threshold 2: a probability, from 0 to 1');
  assert.is(await error('/api/flows/nope?threshold=-0.5', 400), 'threshold -0.5: a probability, from 0 to 1');
  assert.is(await error('/api/flows/shop?threshold=inf', 400), 'threshold inf: a probability, from 0 to 1');
  await error('/api/flows/shop?threshold=abc', 400);
  await error('/api/flows/shop?threshold=', 400);
});

flows('an unknown key is a 404 naming it, on every flow endpoint', async () => {
  assert.is(await error('/api/flows/nope', 404), 'no flow "nope"');
  assert.is(await error('/api/flows/nope/raw', 404), 'no flow "nope"');
  assert.is(await error('/api/flows/nope', 404, { method: 'DELETE' }), 'no flow "nope"');
  await error('/api/flows/shop%00', 404);
});

flows('the diff of shop and the promoted shop is the CLI text; the literal path wins over :key', async () => {
  const texts = await cliTexts();
  const res = await c.api('/api/flows/diff?from=shop&to=shop.promoted');
  assert.is(res.status, 200);
  const d = v.parse(FlowDiffViewSchema, await res.json());
  assert.is(d.markdown, texts.diff_shop_promoted as string);
  assert.equal([d.from, d.to, d.review], ['shop', 'shop.promoted', []]);
  assert.equal(d.sections.map((s) => s.title), ['Promotion']);
  const back = v.parse(FlowDiffViewSchema, await (await c.api('/api/flows/diff?from=shop.promoted&to=shop&tolerance=0.05')).json());
  assert.equal(back.changes, ['3 of 4 sites scored (at least 70% used, a lower bound of 0.50, 3 tasks, at 0.3) → none: it may act after every call']);
});

flows('the diff checks threshold, tolerance, both keys, then finds each flow', async () => {
  assert.is(await error('/api/flows/diff?from=nope&to=nope&threshold=1.5', 400), 'threshold 1.5: a probability, from 0 to 1');
  assert.is(await error('/api/flows/diff?from=nope&tolerance=-1', 400), 'tolerance: a share, 0 or more');
  assert.is(await error('/api/flows/diff?from=shop', 400), 'name the two flows to compare: from=KEY&to=KEY');
  assert.is(await error('/api/flows/diff', 400), 'name the two flows to compare: from=KEY&to=KEY');
  assert.is(await error('/api/flows/diff?from=nope&to=shop', 404), 'no flow "nope"');
  assert.is(await error('/api/flows/diff?from=shop&to=', 404), 'no flow ""');
});

flows('the raw download is the file as it is, named for it', async () => {
  const res = await c.api('/api/flows/shop/raw');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/json');
  assert.is(res.headers.get('content-disposition'), 'attachment; filename="shop.flow.json"');
  assert.is(await res.text(), readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8'));
});

flows('flows that do not load are listed with their error, answer 422, and leave the rest working', async () => {
  const shopText = readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8');
  const noProvenance = JSON.parse(shopText) as Record<string, unknown>;
  delete noProvenance.provenance;
  writeFileSync(join(c.dataDir, 'broken.flow.json'), '{"engine_flow": 7}');
  writeFileSync(join(c.dataDir, 'cut.flow.json'), shopText.slice(0, 300));
  writeFileSync(join(c.dataDir, 'text.flow.json'), 'not json at all');
  writeFileSync(join(c.dataDir, 'two.flow.json'), JSON.stringify({ ...JSON.parse(shopText), engine_flow: 2, thresholds: 3 }));
  writeFileSync(join(c.dataDir, 'bare.flow.json'), JSON.stringify(noProvenance));

  const items = await list();
  const byKey = new Map(items.map((i) => [i.key, i]));
  const broken = byKey.get('broken')!;
  assert.equal([broken.format_version, broken.domain, broken.sites, broken.decider], [7, '', 0, 'habit']);
  assert.is(broken.error, 'flow format 7 is not supported (this build reads 1 and 2)');
  assert.equal(broken.tools, { read: 0, write: 0, generic: 0 });
  assert.match(byKey.get('cut')!.error ?? '', /^not an engine flow: /);
  assert.is(byKey.get('cut')!.format_version, 0);
  assert.match(byKey.get('text')!.error ?? '', /^not an engine flow: /);
  assert.match(byKey.get('two')!.error ?? '', /thresholds/);
  assert.is(byKey.get('two')!.format_version, 2);
  assert.is(byKey.get('bare')!.error, 'missing field `provenance`');
  assert.is(byKey.get('shop')!.error, null);

  assert.is(
    await error('/api/flows/broken', 422),
    'broken.flow.json does not load: flow format 7 is not supported (this build reads 1 and 2)',
  );
  assert.match(await error('/api/flows/cut', 422), /^cut\.flow\.json does not load: not an engine flow: /);
  assert.match(await error('/api/flows/text?threshold=0.5', 422), /^text\.flow\.json does not load: /);
  assert.match(await error('/api/flows/bare', 422), /^bare\.flow\.json does not load: missing field `provenance`/);
  assert.match(await error('/api/flows/diff?from=shop&to=broken', 422), /^broken\.flow\.json does not load: flow format 7/);
  assert.match(await error('/api/flows/diff?from=cut&to=broken', 422), /^cut\.flow\.json does not load/);
  const raw = await c.api('/api/flows/cut/raw');
  assert.is(raw.status, 200);
  assert.is(await raw.text(), shopText.slice(0, 300));
  assert.is((await detail('shop')).summary.error, null);
});

flows('a valid format-2 flow loads, lists its format and reviews with its own thresholds', async () => {
  const flow = JSON.parse(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(c.dataDir, 'searched.flow.json'), JSON.stringify({ ...flow, engine_flow: 2, thresholds: { get_order_details: 0.5 } }));
  const item = (await list()).find((i) => i.key === 'searched')!;
  assert.equal([item.format_version, item.error], [2, null]);
  const d = await detail('searched');
  assert.is(d.sites[1]!.threshold, 0.5);
  assert.is(d.sites[1]!.verdict, 'hands back: `get_order_details` 0.50 × 0.93 = 0.46');
  assert.match(d.review_markdown, 'A search set the threshold at 1 of these sites (`thresholds`)');
});

flows('a flow rewritten on disk is read again', async () => {
  const path = join(c.dataDir, 'again.flow.json');
  const flow = JSON.parse(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8')) as { provenance: { sources: string[] } };
  writeFileSync(path, JSON.stringify(flow));
  assert.equal((await detail('again')).provenance.sources, ['quickstart']);
  flow.provenance.sources = ['someone else, at more length'];
  writeFileSync(path, JSON.stringify(flow));
  assert.equal((await detail('again')).provenance.sources, ['someone else, at more length']);
});

flows('the stage link pairs a committed flow with its staged sibling', async () => {
  copyFileSync(join(fixtureHome, 'shop.flow.json'), join(c.dataDir, 'shop.staged.flow.json'));
  let items = await list();
  assert.equal(items.find((i) => i.key === 'shop')!.stage, { staged: false, other: 'shop.staged', pending: false });
  assert.equal(items.find((i) => i.key === 'shop.staged')!.stage, { staged: true, other: 'shop', pending: false });
  writeFileSync(join(c.dataDir, 'shop.staged.flow.json'), readFileSync(join(fixtureHome, 'shop.promoted.flow.json')));
  items = await list();
  assert.equal(items.find((i) => i.key === 'shop')!.stage, { staged: false, other: 'shop.staged', pending: true });
  assert.equal((await detail('shop')).summary.stage, { staged: false, other: 'shop.staged', pending: true });
});

flows('warnings: a flow with an arbiter and no key gets the key warning; a changed input is named', async () => {
  copyFileSync(join(fixturesDir, 'flows/retail-5-sessions-shipped-arbiter.flow.json'), join(c.dataDir, 'arbiter.flow.json'));
  const d = await detail('arbiter');
  assert.equal(d.warnings.slice(-1), [
    "the flow has an arbiter, which asks TypeSafe's Jev when served: TYPESAFE_API_KEY is not set here, so give the proxy one, or serve it with the habit or reach decider",
  ]);
  const flow = JSON.parse(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8')) as { contracts: Record<string, string> };
  flow.contracts.get_user_details = 'id:string!';
  writeFileSync(join(c.dataDir, 'pinned.flow.json'), JSON.stringify(flow));
  const warnings = (await detail('pinned')).warnings;
  assert.is(warnings.length, 1);
  assert.match(
    warnings[0]!,
    /^`get_user_details`'s input changed since the flow was learned \(id:string! → user_id:string! in the latest recorded tools\/list \(session [^)]+\)\), so the proxy no longer looks it up$/,
  );
});

flows('delete moves only the flow file to the trash', async () => {
  copyFileSync(join(fixtureHome, 'shop.flow.json'), join(c.dataDir, 'gone.flow.json'));
  const res = await c.api('/api/flows/gone', { method: 'DELETE' });
  assert.is(res.status, 200);
  v.parse(OkSchema, await res.json());
  assert.not.ok(existsSync(join(c.dataDir, 'gone.flow.json')));
  const trash = join(c.dataDir, 'console', 'trash');
  const folders = readdirSync(trash);
  assert.ok(folders.some((f) => existsSync(join(trash, f, 'gone.flow.json'))));
  assert.is(await error('/api/flows/gone', 404), 'no flow "gone"');
});

flows.run();
