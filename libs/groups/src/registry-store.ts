import { FileLock } from '@cccc/durable-fs';
import { utcNowIso } from './clock.js';
import type { HomeLayout } from './home-layout.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { RegistryDoc } from './schemas/registry.js';

/** `registry.json` as stored, or a fresh empty registry when the home is new. */
export function readRegistry(layout: HomeLayout): RegistryDoc {
  const raw = readJsonFile(layout.registryPath);
  if (raw === undefined) {
    const now = utcNowIso();
    return { v: 1, created_at: now, updated_at: now, groups: {}, defaults: {} };
  }
  return RegistryDoc.parse(raw);
}

/**
 * Read-modify-write `registry.json` under `registry.json.lock`. `mutate` edits the parsed
 * document in place; unknown keys ride along because the schema is loose.
 */
export async function updateRegistry<R>(layout: HomeLayout, mutate: (registry: RegistryDoc) => R): Promise<R> {
  const lock = await FileLock.acquire(layout.registryLockPath);
  try {
    const registry = readRegistry(layout);
    const result = mutate(registry);
    registry.updated_at = utcNowIso();
    writeJsonFile(layout.registryPath, registry);
    return result;
  } finally {
    lock.release();
  }
}
