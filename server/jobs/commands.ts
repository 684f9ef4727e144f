// Which optional commands the engine CLI found has (console-api.md §8: `drift` came in a later engine). The
// CLI is asked `engine <command> --help`: a CLI that has the command prints its usage and exits 0; one that
// lacks it refuses the subcommand (clap exits 2). Asked at start, and again whenever the binary's stamp
// (device, inode, size, mtime) changes, so an engine upgraded in place is seen without a restart.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { OPTIONAL_JOB_KINDS, type OptionalJobKind } from '../../shared/jobs.ts';

/** How long the CLI may take to print its usage. */
const HELP_TIMEOUT_MS = 5_000;

/** What the probe found about one command: whether it is offered, and how that was found. */
export interface CommandOffer {
  offered: boolean;
  /** Why, in words a person can act on (shown in the refusal). */
  why: string;
}

async function binaryStamp(path: string): Promise<string | null> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return null;
  }
}

function askHelp(path: string, command: string): Promise<CommandOffer> {
  return new Promise((resolve) => {
    execFile(path, [command, '--help'], { timeout: HELP_TIMEOUT_MS, windowsHide: true }, (err) => {
      if (!err) return resolve({ offered: true, why: `engine ${command} --help answered` });
      const code = typeof err.code === 'number' ? `exited with ${err.code}` : 'did not answer';
      resolve({ offered: false, why: `engine ${command} --help ${code}: the engine at ${path} has no ${command} command; install an engine that has it` });
    });
  });
}

export class EngineCommands {
  private stamp: string | null = null;
  private answers: Promise<Map<OptionalJobKind, CommandOffer>> | null = null;

  constructor(private readonly engine: { path: string } | null) {}

  /** What the probe found for each optional command, asked again when the binary changed. */
  async offers(): Promise<Map<OptionalJobKind, CommandOffer>> {
    const engine = this.engine;
    if (engine === null) {
      const why = 'the engine CLI was not found beside the console or on PATH; pass --engine PATH';
      return new Map(OPTIONAL_JOB_KINDS.map((k) => [k, { offered: false, why }]));
    }
    const stamp = await binaryStamp(engine.path);
    if (this.answers === null || stamp !== this.stamp) {
      this.stamp = stamp;
      this.answers = Promise.all(OPTIONAL_JOB_KINDS.map(async (k) => [k, await askHelp(engine.path, k)] as const)).then((pairs) => new Map(pairs));
    }
    return this.answers;
  }

  async offer(command: OptionalJobKind): Promise<CommandOffer> {
    const found = (await this.offers()).get(command);
    return found ?? { offered: false, why: `${command} is not a command the console knows to ask about` };
  }
}
