// A big session log of a given size: a recorded retail session in which the agent pages through the whole
// catalogue, so the log is mostly tools/call pairs with large answers. Written through a stream in
// chunks, never held whole, so a 100 MB log costs about as much memory as one answer.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Rng } from './rng.ts';
import { sortedJson } from './json.ts';
import { sessionId } from './session.ts';
import { DOMAINS, listedTools } from './worlds.ts';

const WORDS = ['oak', 'steel', 'linen', 'travel', 'compact', 'pro', 'classic', 'eco', 'wireless', 'studio', 'outdoor', 'kids'];

/** Products as the server prints them, made once: pages are drawn from them (content matters less than size). */
function productPool(rng: Rng, count: number): string[] {
  return Array.from({ length: count }, (_, id) =>
    // Keys written in sorted order, so plain JSON.stringify prints what the server would.
    JSON.stringify({
      description: `${rng.pick(WORDS)} ${rng.pick(WORDS)} item ${id}, ${'a sturdy everyday thing '.repeat(rng.int(2, 8))}`.trim(),
      name: `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${id}`,
      price: rng.int(100, 99_999) / 100,
      product_id: `p${id}`,
      stock: { online: rng.int(0, 500), stores: rng.int(0, 40) },
      tags: [rng.pick(WORDS), rng.pick(WORDS)],
    }),
  );
}

/** One page of products: an array of about `bytes` bytes of JSON. */
function page(rng: Rng, pool: readonly string[], bytes: number): string {
  const items: string[] = [];
  let size = 2;
  while (size < bytes) {
    const item = pool[rng.int(0, pool.length - 1)]!;
    items.push(item);
    size += item.length + 1;
  }
  return `[${items.join(',')}]`;
}

export interface BigLog {
  id: string;
  bytes: number;
  calls: number;
}

/** Writes a recorded session log of about `megabytes` MB at `dir/<id>.jsonl`. */
export async function writeBigLog(dir: string, megabytes: number, startedMs: number, pid: number, rng: Rng): Promise<BigLog> {
  const domain = DOMAINS.retail!;
  const id = sessionId(startedMs, pid);
  const target = Math.round(megabytes * 1024 * 1024);
  const out = createWriteStream(`${dir}/${id}.jsonl`, { highWaterMark: 1 << 20 });
  let written = 0;
  let buffered: string[] = [];
  let bufferedBytes = 0;
  const write = async (line: string) => {
    buffered.push(line, '\n');
    bufferedBytes += line.length + 1;
    written += Buffer.byteLength(line) + 1;
    if (bufferedBytes >= 1 << 20) {
      const chunk = buffered.join('');
      buffered = [];
      bufferedBytes = 0;
      if (!out.write(chunk)) await once(out, 'drain');
    }
  };
  let t = 0;
  const entry = (from: string, text: string) => write(`{"t_ms":${t},"from":"${from}","message":${text}}`);

  await write(JSON.stringify({ engine_mcp_log: 2, session: id, started_unix_ms: startedMs, server_command: domain.serverCommand, domain: domain.name, agent_model: 'claude-sonnet-4-5' }));
  await entry('client', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'catalogue-sync', version: '2' } } }));
  t += 3;
  await entry('server', sortedJson({ id: 1, jsonrpc: '2.0', result: { capabilities: { tools: { listChanged: false } }, instructions: domain.instructions, protocolVersion: '2025-06-18', serverInfo: { name: domain.serverName, version: '1.4.2' } } }));
  await entry('client', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  await entry('client', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
  t += 2;
  await entry('server', sortedJson({ id: 2, jsonrpc: '2.0', result: { tools: listedTools(domain) } }));
  t += 40;
  await entry('context', JSON.stringify({ role: 'user', content: 'Go through the whole catalogue and list every product that is out of stock online.' }));

  const pool = productPool(rng, 2000);
  let id_ = 3;
  let pageNo = 0;
  while (written < target) {
    const answerBytes = rng.int(40_000, 400_000);
    t += rng.int(600, 2500);
    await entry('client', JSON.stringify({ jsonrpc: '2.0', id: id_, method: 'tools/call', params: { name: 'search_products', arguments: { query: '*', limit: 1000, page: pageNo } } }));
    t += rng.int(20, 400);
    const text = JSON.stringify(page(rng, pool, answerBytes));
    await entry('server', `{"id":${id_},"jsonrpc":"2.0","result":{"content":[{"text":${text},"type":"text"}],"isError":false}}`);
    if (pageNo % 25 === 24) {
      t += rng.int(400, 1500);
      await entry('context', JSON.stringify({ role: 'assistant', content: `${pageNo + 1} pages read so far; carrying on.` }));
    }
    id_ += 1;
    pageNo += 1;
  }
  t += 900;
  await entry('context', JSON.stringify({ role: 'assistant', content: `Done: ${pageNo} pages read.` }));
  if (buffered.length > 0) out.write(buffered.join(''));
  out.end();
  await once(out, 'finish');
  return { id, bytes: written, calls: pageNo };
}
