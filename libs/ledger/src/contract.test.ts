import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openGroupLedger } from './open-ledger.js';
import { MemoryLedgerStore } from './memory-store.js';
import { describeLedgerContract } from './testing.js';

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describeLedgerContract('file store', {
  open: async (opts) => {
    const home = mkdtempSync(join(tmpdir(), 'ledger-contract-'));
    homes.push(home);
    return openGroupLedger({ home, ...opts });
  },
});

// Every acknowledged batch goes through the background index writer thread at once.
describeLedgerContract('file store, indexed by the writer thread', {
  open: async (opts) => {
    const home = mkdtempSync(join(tmpdir(), 'ledger-contract-'));
    homes.push(home);
    return openGroupLedger({ home, ...opts, backgroundIndexAt: 1 });
  },
});

describeLedgerContract('in-memory store', {
  open: async (opts) => new MemoryLedgerStore(opts.groupId, opts),
});
