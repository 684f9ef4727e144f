// The console's version: injected by the bundler, read from package.json when run from source (tsx).
import { readFileSync } from 'node:fs';

declare const __ENGINE_CONSOLE_VERSION__: string | undefined;

function fromPackage(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

export const VERSION: string =
  typeof __ENGINE_CONSOLE_VERSION__ === 'string' ? __ENGINE_CONSOLE_VERSION__ : fromPackage();
