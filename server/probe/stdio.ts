// A stdio server for a connection test: its command started from an argv array (never a shell) with the
// console's environment and this test's mark, in its own process group; JSON-RPC read line by line from its
// stdout. Every byte of stdout and stderr counts against the test's read budget. What it printed that was not
// a message, and the end of its stderr, are kept short to say why a test failed.
import { spawn, type ChildProcess } from 'node:child_process';
import { debugString } from '../engine/format.ts';
import type { ReadBudget } from './budget.ts';
import { answers, isObject, ProbeFailure, request, type JsonObject, type Transport } from './exchange.ts';
import type { Masker } from './mask.ts';
import { killProbeProcesses, killProbeProcessesSync, newMark, PROBE_MARK_VAR } from './processes.ts';

/** How much of a failed server's stderr a test shows. */
const STDERR_TAIL_BYTES = 4096;
const STDERR_TAIL_LINES = 20;
/** How much of what a server printed instead of JSON-RPC its error quotes. */
const PRINTED_TAIL_BYTES = 300;

/** The end of `bytes` as text: at most `maxBytes` and `maxLines`, whole lines where it can; null when blank. */
function tailText(bytes: Buffer, maxBytes: number, maxLines: number, masker: Masker): string | null {
  let text = bytes.subarray(-maxBytes).toString('utf8').replace(/\r\n?/g, '\n');
  const cut = bytes.length > maxBytes;
  if (cut && text.includes('\n')) text = text.slice(text.indexOf('\n') + 1);
  const lines = text.split('\n').map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const kept = lines.slice(-maxLines).join('\n');
  if (kept.trim() === '') return null;
  return cut ? masker.cut(kept) : masker.text(kept);
}

/** Keeps the last `max * 2` bytes at most of what is appended. */
class Tail {
  bytes: Buffer = Buffer.alloc(0);
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    this.bytes = Buffer.concat([this.bytes, chunk]);
    if (this.bytes.length > this.max * 2) this.bytes = this.bytes.subarray(-this.max - 1);
  }
}

/** Stdio tests not yet closed, by their server's pid; killed at exit so none outlives the console. */
const live = new Map<number, { mark: string; running: boolean }>();

/** Kills every stdio server a test started and all it left (the console's stop and exit call this). */
export function stopStdioProbes(): void {
  for (const [pid, { mark, running }] of live) killProbeProcessesSync(pid, mark, running);
}
process.once('exit', stopStdioProbes);

const OS_ERRORS: Record<string, string> = {
  ENOENT: 'No such file or directory (os error 2)',
  EACCES: 'Permission denied (os error 13)',
  ENOTDIR: 'Not a directory (os error 20)',
};

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal: ${signal}` : `exit status: ${code}`;
}

type Waiter = { method: string; resolve: (m: JsonObject) => void; reject: (e: Error) => void };

export class StdioTransport implements Transport {
  private readonly child: ChildProcess;
  private readonly mark = newMark();
  private pending: Buffer[] = [];
  private ended = false;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private failure: ProbeFailure | null = null;
  private readonly waiting = new Map<number, Waiter>();
  private readonly spawned: Promise<void>;
  private readonly exited: Promise<void>;
  private readonly stderr = new Tail(STDERR_TAIL_BYTES);
  private readonly printed = new Tail(PRINTED_TAIL_BYTES);

  constructor(
    command: string[],
    private readonly budget: ReadBudget,
    private readonly masker: Masker,
  ) {
    const [program = '', ...args] = command;
    const env = { ...process.env, [PROBE_MARK_VAR]: this.mark };
    this.child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      if (this.counted(chunk)) this.stderr.add(chunk);
    });
    this.child.stderr?.on('error', () => undefined);
    const pid = this.child.pid;
    const tracked = { mark: this.mark, running: true };
    if (pid !== undefined) live.set(pid, tracked);
    this.spawned = new Promise((resolve, reject) => {
      this.child.once('spawn', () => resolve());
      this.child.once('error', (e: NodeJS.ErrnoException) => {
        const why = (e.code && OS_ERRORS[e.code]) ?? e.message;
        reject(new ProbeFailure(`starting ${program}: ${why}`));
      });
    });
    this.spawned.catch(() => undefined);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        tracked.running = false;
        resolve();
      }),
    );
    this.child.stdin?.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') this.fail(new ProbeFailure(`writing to the server: ${e.message}`));
    });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      if (this.counted(chunk)) this.read(chunk);
    });
    this.child.stdout?.on('error', (e) => this.fail(new ProbeFailure(`reading from the server: ${e.message}`)));
    this.child.stdout?.on('end', () => void this.closed());
  }

  /** Counts a chunk against the budget; past it, nothing more is read and the test fails. */
  private counted(chunk: Buffer): boolean {
    if (this.budget.take(chunk.length)) return true;
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.fail(this.budget.failure());
    return false;
  }

  /** The last lines the server wrote to stderr, masked, or null when it wrote none. */
  async stderrTail(): Promise<string | null> {
    // What a server that exits at once printed may still be in the pipe.
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 100))]);
    return tailText(this.stderr.bytes, STDERR_TAIL_BYTES, STDERR_TAIL_LINES, this.masker);
  }

  private fail(error: ProbeFailure): void {
    if (!this.failure) this.failure = error;
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
  }

  /** Why the output closed before an answer: how the server exited, and what it printed instead of JSON-RPC. */
  private closedText(method: string): string {
    let text = `the server closed its output before answering ${method}`;
    if (this.exit) text += ` (it exited with ${exitText(this.exit.code, this.exit.signal)})`;
    const printed = tailText(this.printed.bytes, PRINTED_TAIL_BYTES, STDERR_TAIL_LINES, this.masker);
    if (printed !== null) text += `; instead of JSON-RPC it printed ${debugString(printed)}`;
    return text;
  }

  private async closed(): Promise<void> {
    this.ended = true;
    // A server that exits at once closes its output just before it exits: give the exit a moment to land.
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 200))]);
    for (const [, w] of this.waiting) w.reject(new ProbeFailure(this.closedText(w.method)));
    this.waiting.clear();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      const line = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.line(line);
    }
    // The budget bounds a line that never ends.
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
  }

  /** A line that is not a message is kept (short) as what the server printed instead. */
  private notMessage(bytes: Buffer): void {
    this.printed.add(bytes.subarray(-PRINTED_TAIL_BYTES * 2));
    this.printed.add(Buffer.from('\n'));
  }

  private line(bytes: Buffer): void {
    // Only an object can be a message; skipping the rest cheaply keeps a flood of garbage cheap.
    let i = 0;
    while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 13)) i++;
    if (bytes[i] !== 0x7b) return this.notMessage(bytes);
    let message: unknown;
    try {
      message = JSON.parse(bytes.toString('utf8'));
    } catch {
      return this.notMessage(bytes);
    }
    if (!isObject(message)) return this.notMessage(bytes);
    if (typeof message.method === 'string' && 'id' in message) {
      this.write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    for (const [id, w] of this.waiting) {
      if (answers(message, id)) {
        this.waiting.delete(id);
        w.resolve(message);
        return;
      }
    }
  }

  private write(message: JsonObject): void {
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return;
    stdin.write(`${JSON.stringify(message)}\n`);
  }

  async call(id: number, method: string, params: JsonObject): Promise<JsonObject> {
    await this.spawned;
    if (this.failure) throw this.failure;
    const answer = new Promise<JsonObject>((resolve, reject) => this.waiting.set(id, { method, resolve, reject }));
    if (this.ended) void this.closed();
    this.write(request(id, method, params));
    return answer;
  }

  async notify(method: string): Promise<void> {
    this.write({ jsonrpc: '2.0', method });
  }

  async close(): Promise<void> {
    const pid = this.child.pid;
    // Killed before its input ends: a server that exits at the end of its input would orphan its children,
    // and an orphan is found only by its mark.
    if (pid !== undefined) await killProbeProcesses(pid, this.mark, this.exit === null);
    this.child.stdin?.end();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    if (pid === undefined) return;
    live.delete(pid);
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 1000))]);
  }
}
