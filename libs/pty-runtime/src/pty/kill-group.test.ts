import { describe, expect, it } from 'vitest';
import { OutputCollector } from '../testing/collect.js';
import { spawnNodePty } from './node-pty-session.js';
import { stopPtySession } from './spawner.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('stopping a PTY session', () => {
  it('leaves no process behind, helpers included', async () => {
    // The agent starts a helper that ignores SIGTERM and prints its pid.
    const pty = spawnNodePty({
      argv: ['sh', '-c', "sh -c 'trap \"\" TERM; echo helper=$$; sleep 60' & wait"],
      cwd: process.cwd(),
      env: process.env as Record<string, string>,
      cols: 120,
      rows: 40,
    });
    using out = new OutputCollector(pty);
    const text = await out.waitFor(/helper=\d+/);
    const helper = Number(/helper=(\d+)/.exec(text)![1]);
    expect(alive(helper)).toBe(true);
    await stopPtySession(pty, { graceMs: 300 });
    const deadline = Date.now() + 3000;
    while (alive(helper) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(alive(helper)).toBe(false);
  });
});
