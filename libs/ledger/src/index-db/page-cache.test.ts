import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerPaths } from '../paths.js';
import { LedgerFiles } from '../storage/ledger-files.js';
import { TempHomes } from '../test-support/homes.js';
import { INDEX_CACHE_KIB, LedgerIndex, REBUILD_CACHE_KIB } from './ledger-index.js';
import { rebuildIndex } from './sync.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_cache00000001';

const cacheSize = (index: LedgerIndex) => index.db.pragma('cache_size', { simple: true });

function rawEvent(i: number): string {
  return JSON.stringify({ v: 1, id: i.toString(16).padStart(32, '0'), ts: '2026-11-30T08:00:00.000000Z', kind: 'chat.message', group_id: G, scope_key: '', by: 'user', data: { text: `raw${i}`, message_mode: 'mail', to: ['peer1'] } });
}

describe('index page cache', () => {
  it('is a few MiB per connection, so resident memory does not follow the size of the index', () => {
    expect(INDEX_CACHE_KIB).toBeLessThanOrEqual(8192);
    const paths = ledgerPaths(homes.make(), G);
    const { index } = LedgerIndex.open(paths.index);
    try {
      expect(cacheSize(index)).toBe(-INDEX_CACHE_KIB);
    } finally {
      index.close();
    }
    // Reopening an existing file (quick_check reads every page) keeps the same bound.
    const again = LedgerIndex.open(paths.index).index;
    try {
      expect(cacheSize(again)).toBe(-INDEX_CACHE_KIB);
    } finally {
      again.close();
    }
  });

  it('grows only while a rebuild runs, and is given back after it', () => {
    const paths = ledgerPaths(homes.make(), G);
    mkdirSync(paths.groupDir, { recursive: true });
    writeFileSync(paths.active, [1, 2, 3].map(rawEvent).join('\n') + '\n');
    const { index } = LedgerIndex.open(paths.index);
    const files = new LedgerFiles(paths);
    try {
      let during: unknown;
      index.withRebuildCache(() => (during = cacheSize(index)));
      expect(during).toBe(-REBUILD_CACHE_KIB);
      expect(cacheSize(index)).toBe(-INDEX_CACHE_KIB);
      expect(() => index.withRebuildCache(() => { throw new Error('boom'); })).toThrow('boom');
      expect(cacheSize(index)).toBe(-INDEX_CACHE_KIB);

      rebuildIndex(index, files);
      expect(index.eventCount()).toBe(3);
      expect(cacheSize(index)).toBe(-INDEX_CACHE_KIB);
    } finally {
      files.close();
      index.close();
    }
  });
});
