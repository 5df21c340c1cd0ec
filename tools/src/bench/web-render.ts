// web-render section (issue 8): time to first render of a group chat with 10,000 messages in
// headless Chromium (target <= 1.5 s), against the same page for a one-message group measured in
// the same run, plus the browser app's JS bundle size gzipped.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { startWebServer } from '@cccc/web';
import { chromium, type Browser } from 'playwright-core';
import { startBenchDaemon } from './ping.js';
import { printTable, summarize } from './stats.js';

const CHROMIUM = process.env.CCCC_CHROMIUM_PATH ?? '/usr/bin/chromium';
const BIG = 10_000;
const RUNS = 5;
/** Seed calls in flight at once (the daemon serializes appends; this only hides round trips). */
const SEED_CONCURRENCY = 8;

/** Mail appends without waking any runtime, so seeding measures nothing but the ledger. */
async function seedGroup(client: DaemonClient, title: string, count: number): Promise<{ gid: string; newest: string; ms: number }> {
  const { group_id: gid } = await client.call('group_create', { title });
  await client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['true'] });
  const t0 = performance.now();
  let next = 0;
  let newest = '';
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const r = await client.call('send', { group_id: gid, text: `seeded message ${i}: the quick brown fox jumps over the lazy dog`, to: ['peer1'], message_mode: 'mail' });
      if (i === count - 1) newest = r.event.id;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, count) }, worker));
  // With calls in flight the last index is not necessarily the last append: ask the ledger.
  const tail = await client.call('ledger_tail', { group_id: gid, kinds: ['chat.message'], limit: 1 });
  newest = tail.events.at(-1)?.id ?? newest;
  return { gid, newest, ms: performance.now() - t0 };
}

/**
 * Navigation start -> the frame that first shows the newest message's row, in a fresh context
 * (cold HTTP cache). Timed inside the page (performance.now() is relative to navigation start):
 * a MutationObserver spots the row and the next animation frame records the time once it is in
 * the viewport, so the harness's polling interval is not part of the figure. `wallMs` is the
 * same as seen from the harness, for comparison.
 */
async function renderMs(browser: Browser, url: string, newest: string): Promise<{ ms: number; wallMs: number; rows: number }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    // Page-side code as a string: this file compiles without the DOM library.
    await context.addInitScript({
      content: `(() => {
        const id = ${JSON.stringify(newest)};
        const check = () => {
          const el = document.querySelector('[data-event-id="' + id + '"]');
          if (!el || window.__newestShownAt !== undefined) return;
          requestAnimationFrame(() => {
            const r = el.getBoundingClientRect();
            if (window.__newestShownAt === undefined && el.isConnected && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight) window.__newestShownAt = performance.now();
          });
        };
        new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
        document.addEventListener('scroll', check, true);
      })();`,
    });
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(url, { waitUntil: 'commit' });
    // A function, not a string: the app's CSP forbids eval.
    const handle = await page.waitForFunction(() => (globalThis as { __newestShownAt?: number }).__newestShownAt, undefined, { timeout: 60_000 });
    const wallMs = performance.now() - t0;
    const ms = (await handle.jsonValue()) as number;
    const rows = await page.locator('article.msg').count();
    return { ms, wallMs, rows };
  } finally {
    await context.close();
  }
}

/** apps/web/dist/app (@cccc/web exports only an `import` condition: resolve it the ESM way). */
function builtAppDir(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('@cccc/web'))), 'app');
}

function bundleSizes(): Array<Record<string, string | number>> {
  const appDir = builtAppDir();
  const html = readFileSync(join(appDir, 'index.html'), 'utf8');
  const assets = join(appDir, 'assets');
  const rows: Array<Record<string, string | number>> = [];
  let eagerGz = 0;
  let allGz = 0;
  for (const file of readdirSync(assets).filter((f) => f.endsWith('.js') || f.endsWith('.css')).sort()) {
    const raw = readFileSync(join(assets, file));
    const gz = gzipSync(raw).length;
    // Files index.html names load with the page; the rest are lazy chunks (the terminal).
    const eager = html.includes(file);
    if (eager) eagerGz += gz;
    allGz += gz;
    rows.push({ file, loads: eager ? 'with the page' : 'lazy', 'raw KiB': (raw.length / 1024).toFixed(1), 'gzip KiB': (gz / 1024).toFixed(1) });
  }
  rows.push({ file: 'total loaded with the page', loads: '', 'raw KiB': '', 'gzip KiB': (eagerGz / 1024).toFixed(1) });
  rows.push({ file: 'total including lazy chunks', loads: '', 'raw KiB': '', 'gzip KiB': (allGz / 1024).toFixed(1) });
  return rows;
}

export async function benchWebRender(): Promise<void> {
  printTable('web-render: browser app bundle (apps/web/dist/app, gzip -6)', bundleSizes());
  if (!existsSync(CHROMIUM)) {
    console.log(`\n(web-render: ${CHROMIUM} not found; render timing skipped — .ci/run installs chromium)`);
    return;
  }
  const daemon = await startBenchDaemon();
  const client = new DaemonClient({ home: daemon.home });
  // Serve a snapshot of the built app: a concurrent `vite build` empties dist/app while it runs.
  const appDir = mkdtempSync(join(tmpdir(), 'cccc-bench-app-'));
  cpSync(builtAppDir(), appDir, { recursive: true });
  const web = await startWebServer({ home: daemon.home, port: 0, appDir });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  try {
    const small = await seedGroup(client, 'bench-one', 1);
    const big = await seedGroup(client, 'bench-10k', BIG);
    const cases = [
      { name: 'group with 1 message (baseline)', ...small, count: 1 },
      { name: `group with ${BIG.toLocaleString('en-US')} messages`, ...big, count: BIG },
    ];
    // Warm-up: the first Chromium page pays process start-up; not counted.
    await renderMs(browser, `${web.url}/?group=${small.gid}`, small.newest);
    const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const wall = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const rowsMounted = new Map<string, number>();
    for (let r = 0; r < RUNS; r++) {
      for (const c of cases) {
        const { ms, wallMs, rows } = await renderMs(browser, `${web.url}/?group=${c.gid}`, c.newest);
        samples.get(c.name)!.push(ms);
        wall.get(c.name)!.push(wallMs);
        rowsMounted.set(c.name, rows);
      }
    }
    printTable(`web-render: navigation start -> first frame showing the newest message (in-page timing, headless Chromium, fresh context each, ${RUNS} runs; seeding ${BIG.toLocaleString('en-US')} took ${(big.ms / 1000).toFixed(1)} s)`, cases.map((c) => {
      const s = summarize(samples.get(c.name)!);
      return {
        case: c.name,
        p50: `${s.p50.toFixed(0)} ms`,
        max: `${Math.max(...samples.get(c.name)!).toFixed(0)} ms`,
        'p50 seen by harness': `${summarize(wall.get(c.name)!).p50.toFixed(0)} ms`,
        'rows mounted': rowsMounted.get(c.name) ?? 0,
        target: c.count === BIG ? '<= 1500 ms' : '',
      };
    }));
  } finally {
    await browser.close().catch(() => undefined);
    await web.close();
    await daemon.stop();
    rmSync(appDir, { recursive: true, force: true });
  }
}
