import { api } from './client';
import type { RuntimeListEntry } from './types';

/** `GET /api/v1/runtimes` entry: the catalog plus whether the CLI is on the daemon's PATH. */
export type RuntimeInfo = RuntimeListEntry;

let runtimesCache: Promise<RuntimeInfo[]> | undefined;

/** The runtime catalog, read once per page (a failure is retried on the next call). */
export function loadRuntimes(): Promise<RuntimeInfo[]> {
  runtimesCache ??= api.runtimes().then(
    (r) => r.runtimes,
    (e: unknown) => {
      runtimesCache = undefined;
      throw e;
    },
  );
  return runtimesCache;
}

/** Installed runtimes first (catalog order within each half); `custom` last. */
export function installedFirst(runtimes: readonly RuntimeInfo[]): RuntimeInfo[] {
  const named = runtimes.filter((r) => r.runtime !== 'custom');
  return [...named.filter((r) => r.installed), ...named.filter((r) => !r.installed), ...runtimes.filter((r) => r.runtime === 'custom')];
}
