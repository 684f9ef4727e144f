// The bench's browser figures (issue 10): a big session's page in real Chromium (Debian's, through
// playwright-core) against the console the bench started. Navigation to the first turn painted, cold (the
// first open since the console started) and warm; the bytes the page fetched before that paint; "Expand
// all" to its paint, and to the open calls' payloads shown; the page's JS heap after that (garbage
// collected first) and its DOM size. Every wait is bounded.
import { existsSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

type Report = (pass: boolean | null, text: string) => void;

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

/** Records, from the page's start, when the first turn heading is in the DOM and then painted. */
const FIRST_TURN_PROBE = `(() => {
  const w = window;
  w.__firstTurn = null;
  const seen = () => {
    if (w.__firstTurn !== null || !document.querySelector('h3.tl-turn-label')) return false;
    w.__firstTurn = -1;
    // The frame after the one that laid it out has painted it.
    requestAnimationFrame(() => setTimeout(() => { w.__firstTurn = performance.now(); }, 0));
    return true;
  };
  new MutationObserver((_, o) => { if (seen()) o.disconnect(); }).observe(document, { childList: true, subtree: true });
})();`;

/** Navigation start → first turn painted, and the bytes received until then (documents, scripts, API). */
async function openSession(page: Page, url: string): Promise<{ ms: number; bytes: number }> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => ((window as unknown as { __firstTurn: number | null }).__firstTurn ?? -1) > 0, undefined, { timeout: 60_000, polling: 20 });
  return page.evaluate(() => {
    const at = (window as unknown as { __firstTurn: number }).__firstTurn;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    let bytes = nav?.transferSize ?? 0;
    for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) if (e.responseEnd <= at) bytes += e.transferSize;
    return { ms: at, bytes };
  });
}

export async function sessionPageFigures(opts: { url: string; token: string; sessionKey: string; sizeMb: number; calls: number; report: Report }): Promise<void> {
  const { report } = opts;
  if (!existsSync(CHROMIUM)) return report(null, `session page in a browser: ${CHROMIUM} is missing, not measured`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(60_000);
    await context.addInitScript(FIRST_TURN_PROBE);
    const page = await context.newPage();
    // Sign in through the token link; the cookie then carries every request.
    await page.goto(`${opts.url}/?token=${encodeURIComponent(opts.token)}`);
    await page.locator('h1').first().waitFor();
    const sessionUrl = `${opts.url}/sessions/${encodeURIComponent(opts.sessionKey)}`;
    const what = `the ${opts.sizeMb.toFixed(0)} MB session (${opts.calls} calls)`;

    const cold = await openSession(page, sessionUrl);
    report(cold.ms <= 1000, `session page, first turn painted, first open: ${fmt(cold.ms)} ms for ${what} — target ≤ 1000 ms`);
    const warm: { ms: number; bytes: number }[] = [];
    for (let i = 0; i < 3; i++) warm.push(await openSession(page, sessionUrl));
    const warmMs = warm.map((w) => w.ms).sort((a, b) => a - b)[1]!;
    report(warmMs <= 1000, `session page, first turn painted, opened again: ${fmt(warmMs)} ms median of 3 (${warm.map((w) => fmt(w.ms)).join(', ')}) — target ≤ 1000 ms`);
    const bytes = Math.max(cold.bytes, ...warm.map((w) => w.bytes));
    report(bytes <= 2 * 1024 * 1024, `session page, bytes received before the first turn painted: ${(bytes / 1024).toFixed(0)} KB (most of the opens) — target ≤ 2048 KB`);

    // Expand all: the click to the next painted frame, then until every open call shows its payload.
    await page.waitForLoadState('networkidle').catch(() => {});
    const expand = await page.evaluate(async () => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Expand all');
      if (!button) throw new Error('no Expand all button');
      const t0 = performance.now();
      button.click();
      await new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      const painted = performance.now() - t0;
      const deadline = performance.now() + 30_000;
      while (document.querySelector('.call-body [aria-busy="true"], .call-body .skeleton-group') && performance.now() < deadline) {
        await new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      }
      await new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      return { painted, loaded: performance.now() - t0, open: document.querySelectorAll('.call-body').length, nodes: document.getElementsByTagName('*').length };
    });
    report(expand.painted <= 500, `session page, "Expand all" painted: ${fmt(expand.painted)} ms; its ${expand.open} open calls on screen with their payloads: ${fmt(expand.loaded)} ms; ${expand.nodes} DOM nodes — target ≤ 500 ms`);

    // Scrolling through the expanded timeline keeps the page light: a third, two thirds, the end.
    for (const at of [1 / 3, 2 / 3, 1]) {
      await page.evaluate((f) => window.scrollTo(0, document.documentElement.scrollHeight * f), at);
      await page.waitForTimeout(400);
    }
    await page.waitForLoadState('networkidle').catch(() => {});
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    const heap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
    const nodes = metrics.metrics.find((m) => m.name === 'Nodes')?.value ?? NaN;
    report(heap <= 100 * 1024 * 1024, `session page, JS heap after expanding all and scrolling to the end: ${(heap / 1048576).toFixed(1)} MB used (after a collection), ${nodes} DOM nodes — target ≤ 100 MB`);
  } finally {
    await browser.close();
  }
}
