import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, installed by `.ci/run` (playwright never downloads a browser here). */
export const CHROMIUM_PATH = process.env.CCCC_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots of the main screens land here (gitignored) for the closing note. */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '..', '..', 'test-artifacts');

export interface TestBrowser extends AsyncDisposable {
  readonly browser: Browser;
  /** A fresh context (own cookies) with one page: 1440×900, or a 390×844 touch phone. */
  newPage(options?: { phone?: boolean }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * A real headless Chromium. The flags keep it from reaching for the network (this machine's
 * network is closed and refused connections slow every start) and from needing /dev/shm.
 */
export async function launchTestBrowser(extraArgs: readonly string[] = []): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  });
  const close = async () => {
    // playwright gives every launch a fresh temporary profile and removes it on close
    await browser.close().catch(() => undefined);
  };
  return {
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext(
        options.phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport: { width: 1440, height: 900 } },
      );
      const page = await context.newPage();
      return { context, page };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Save a screenshot as a test artifact; returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * The same view on a phone (390×844, touch): a fresh phone page opens `url`, `ready` waits for
 * what the screenshot should show, and `<name>-phone.png` is saved. Returns its path.
 */
export async function savePhoneScreenshot(browser: TestBrowser, url: string, name: string, ready: (page: Page) => Promise<unknown>): Promise<string> {
  const { context, page } = await browser.newPage({ phone: true });
  try {
    await page.goto(url);
    await ready(page);
    return await saveScreenshot(page, `${name}-phone`);
  } finally {
    await context.close();
  }
}
