import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { startWebServer, type WebServer } from '../server.js';
import { snapshotApp } from './app-snapshot.js';
import { launchTestBrowser, type TestBrowser } from './browser.js';
import { startDaemonHome, type DaemonHome } from './harness.js';

/** What a browser test runs against: all real, all its own. */
export interface WebStack {
  /** A daemon started by the built CLI in a temp CCCC_HOME. */
  readonly daemon: DaemonHome;
  /** The Web port on a free loopback port, serving a snapshot of the built app. */
  readonly web: WebServer;
  /** Debian's headless Chromium. */
  readonly browser: TestBrowser;
  close(): Promise<void>;
}

/**
 * Start the stack a browser test needs. The app is served from a snapshot copy, so a build of
 * this package running meanwhile (vite empties dist/app) cannot pull pages from under a test.
 * Whatever started is stopped again when a later part fails to start.
 */
export interface WebStackOptions {
  /** More of the daemon's environment (its tuning knobs). */
  readonly daemonEnv?: Readonly<Record<string, string>>;
}

export async function startWebStack(options: WebStackOptions = {}): Promise<WebStack> {
  const cleanups: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  };
  try {
    const appDir = await snapshotApp();
    cleanups.push(() => rmSync(appDir, { recursive: true, force: true }));
    const daemon = await startDaemonHome(options.daemonEnv);
    cleanups.push(() => daemon.stop());
    const web = await startWebServer({ home: daemon.home, port: 0, appDir });
    cleanups.push(() => web.close());
    const browser = await launchTestBrowser();
    cleanups.push(() => browser.close());
    return { daemon, web, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * One stack for the whole test file: started in a beforeAll (180 s for the daemon, the Web port
 * and Chromium to come up) and closed in an afterAll. `onStarted` hands the started parts to the
 * file's own variables. Shared so the browser e2e files that need nothing more than the stack do
 * not each repeat the same start/close hooks and timeouts.
 */
export function useWebStack(onStarted: (stack: WebStack) => void, options: WebStackOptions = {}): void {
  let stack: WebStack | undefined;
  beforeAll(async () => {
    stack = await startWebStack(options);
    onStarted(stack);
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  }, 60_000);
}
