// Which values a connection test masks: those of every variable the registry entry names (a stdio server's
// env, an HTTP server's header variables), the model key (TYPESAFE_API_KEY, or the file TYPESAFE_API_KEY_FILE
// names, as the CLI reads it) and the one-off values sent with the test.
import { readFile } from 'node:fs/promises';
import type { Upstream } from '../../shared/servers.ts';

const MODEL_KEY_VAR = 'TYPESAFE_API_KEY';
const MODEL_KEY_FILE_VAR = 'TYPESAFE_API_KEY_FILE';
/** A key file is a key: a longer file is not read to mask it. */
const KEY_FILE_MAX_BYTES = 64 * 1024;

async function keyFileValue(path: string | undefined): Promise<string | null> {
  if (path === undefined || path === '') return null;
  try {
    const bytes = await readFile(path);
    return bytes.length > KEY_FILE_MAX_BYTES ? null : bytes.toString('utf8').trim();
  } catch {
    return null;
  }
}

export async function secretValues(
  upstream: Upstream,
  env: Record<string, string | undefined>,
  oneOff: Record<string, string>,
): Promise<string[]> {
  const names = upstream.kind === 'stdio' ? [...upstream.env] : upstream.headers.map((h) => h.env);
  names.push(MODEL_KEY_VAR);
  const values = names.map((n) => env[n]).filter((x): x is string => x !== undefined && x !== '');
  values.push(...Object.values(oneOff));
  const fromFile = await keyFileValue(env[MODEL_KEY_FILE_VAR]);
  if (fromFile) values.push(fromFile);
  return values;
}
