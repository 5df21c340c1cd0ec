import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupMemory } from '../group-memory.js';

/** A temp group directory with a GroupMemory on it, at a fixed clock. */
export function tempGroup(title = 'Team Alpha', now = new Date('2026-11-30T08:00:00Z')) {
  const dir = mkdtempSync(join(tmpdir(), 'cccc-mem-'));
  const groupDir = join(dir, 'g_0000000000aa');
  mkdirSync(groupDir, { recursive: true });
  const memory = new GroupMemory({ groupDir, title: () => title, now: () => now, scanFreshMs: 0 });
  return {
    dir,
    groupDir,
    memory,
    root: join(groupDir, 'state', 'memory'),
    [Symbol.dispose]() {
      memory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
