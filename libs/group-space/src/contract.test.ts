import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { LocalSpaceProvider } from './local/local-provider.js';
import { describeSpaceProviderContract } from './testing.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describeSpaceProviderContract('local (SQLite FTS5)', {
  open: () => {
    const dir = mkdtempSync(join(tmpdir(), 'space-provider-'));
    dirs.push(dir);
    return new LocalSpaceProvider(join(dir, 'provider.sqlite3'));
  },
  close: (p) => (p as LocalSpaceProvider).close(),
});
