import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupSpace } from './group-space.js';
import { NotebookLmControlPlane } from './notebooklm/control-plane.js';
import { ensureDist } from './test-support/dist.js';

let root = '';
const dirs: string[] = [];
beforeAll(() => {
  root = ensureDist();
}, 120_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function boundSpace(): { home: string; stateDir: string; open: () => GroupSpace } {
  const home = mkdtempSync(join(tmpdir(), 'space-crash-'));
  dirs.push(home);
  const stateDir = join(home, 'state-space');
  const open = () => new GroupSpace({ groupId: 'g_crash', stateDir, dailyDir: join(stateDir, 'no-daily'), spaceRoot: () => undefined, notebooklm: new NotebookLmControlPlane(home, {}) });
  return { home, stateDir, open };
}

/** Run the ingest loop; SIGKILL it once it printed `until` (an "acked n" or "paused n" line). */
function killWhen(home: string, stateDir: string, mode: string, pauseAt: number, until: RegExp): Promise<{ lines: string[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'test-fixtures', 'ingest-loop.mjs'), home, stateDir, mode, String(pauseAt)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buf = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.stdout.on('data', (d) => {
      buf += String(d);
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      lines.push(...parts);
      if (parts.some((l) => until.test(l))) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code ? reject(new Error(`child exited ${code}: ${stderr}`)) : resolve({ lines, signal })));
  });
}

/** After the kill: recover, then reissue every key up to `upTo`; each key is one succeeded job and one source. */
async function expectExactlyOnce(open: () => GroupSpace, upTo: number) {
  const space = open();
  try {
    const rec = await space.recover();
    expect(rec.uncertain).toBe(0);
    for (let i = 0; i <= upTo; i++) {
      const r = await space.ingest({ lane: 'work', idempotency_key: `k${i}`, payload: { source_type: 'text', title: `note ${i}`, content: `crash note number ${i} about the phoenix` } });
      expect(r.job.state, `k${i}`).toBe('succeeded');
      expect(r.source_ids).toHaveLength(1);
    }
    const jobs = space.jobs.list('work', { limit: 500 });
    expect(jobs).toHaveLength(upTo + 1);
    expect(new Set(jobs.map((j) => j.idempotency_key)).size).toBe(upTo + 1);
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    const sources = (await space.sources({ lane: 'work' }) as unknown as { sources: Array<{ title: string }> }).sources;
    expect(sources.map((s) => s.title).sort()).toEqual(Array.from({ length: upTo + 1 }, (_, i) => `note ${i}`).sort());
  } finally {
    space.close();
  }
}

describe('kill -9 of a process mid-job neither loses nor duplicates a job', () => {
  it.each(['before', 'after'])('killed inside job 5 (%s the provider commit): the job is replayed once', async (mode) => {
    const { home, stateDir, open } = boundSpace();
    const s = open();
    await s.bind({ lane: 'work', provider: 'local' });
    s.close();
    const { lines, signal } = await killWhen(home, stateDir, mode, 5, /^paused 5$/);
    expect(signal).toBe('SIGKILL');
    expect(lines).toContain('acked 4');
    const after = open();
    const job = after.jobs.byKey('work', 'k5')!;
    expect(job.state).toBe('running'); // the crash left the outcome unsettled
    after.close();
    await expectExactlyOnce(open, 8);
  }, 60_000);

  it.each([3, 11, 25])('killed at a random point after %i acknowledged jobs', async (n) => {
    const { home, stateDir, open } = boundSpace();
    const s = open();
    await s.bind({ lane: 'work', provider: 'local' });
    s.close();
    const { signal } = await killWhen(home, stateDir, 'loop', -1, new RegExp(`^acked ${n}$`));
    expect(signal).toBe('SIGKILL');
    await expectExactlyOnce(open, n + 3);
  }, 60_000);
});
