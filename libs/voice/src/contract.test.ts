import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { FileLeaseStore } from './lease/file-lease-store.js';
import { MemoryLeaseStore } from './lease/memory-lease-store.js';
import { describeRecordingLeaseContract } from './testing.js';

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describeRecordingLeaseContract('file store', {
  open: (now) => {
    const home = mkdtempSync(join(tmpdir(), 'voice-lease-'));
    homes.push(home);
    return new FileLeaseStore(home, { now });
  },
});

describeRecordingLeaseContract('memory store', { open: (now) => new MemoryLeaseStore(now) });
