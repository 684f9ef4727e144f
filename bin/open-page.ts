// What --open hands the browser: a file only the launching user can read (0600, in a fresh 0700 directory)
// that sends the browser on to the one-time sign-in link. A browser's command line is readable by every
// local user, so the link's code goes into the file and only the file's name goes into the arguments.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface OpenPage {
  /** The file:// URL to give the browser: it names the file, never the code. */
  url: string;
  /** Removes the directory and its file (idempotent). */
  remove(): void;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: an immediate refresh to `link`, and the link itself for a browser that does not follow it. */
export function openPageHtml(link: string): string {
  const href = escapeHtml(link);
  return (
    `<!doctype html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}">` +
    `<title>engine console</title></head>\n<body><p><a href="${href}">Open the engine console</a></p></body></html>\n`
  );
}

/** Writes the page for `link` in a new private directory under the system's temp directory. */
export function writeOpenPage(link: string): OpenPage {
  const dir = mkdtempSync(join(tmpdir(), 'engine-console-open-'));
  const file = join(dir, 'open.html');
  writeFileSync(file, openPageHtml(link), { mode: 0o600, flag: 'wx' });
  return { url: pathToFileURL(file).href, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
