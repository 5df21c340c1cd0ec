import { isEventOfKind, type CCCSEventV1 } from '@cccc/ipc-protocol';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { terminalTail } from '@cccc/pty-runtime';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import type { Kernel } from '../kernel/kernel.js';
import { startDaemonFixture, type DaemonFixture } from '../testing/daemon-fixture.js';

// A short early-exit window: these tests' agents either run or fail at spawn (start-report.test.ts
// covers the window itself with the default).
export const FAST_ENV = { CCCC_SUBMIT_DELAY_MS: '50', CCCC_STOP_GRACE_MS: '500', CCCC_PREAMBLE_GAP_MS: '50', CCCC_EARLY_EXIT_WINDOW_MS: '200' };

export async function runtimeFixture(env: NodeJS.ProcessEnv = {}, options: { cliEntry?: string } = {}): Promise<DaemonFixture & { kernel: Kernel }> {
  const fx = await startDaemonFixture({ ...options, env: { ...FAST_ENV, ...env } });
  return Object.assign(fx, { kernel: fx.daemon.kernel! });
}

/** A group with an attached temp scope and fake-agent actors (not started). */
export async function fakeAgentGroup(fx: DaemonFixture, actors: Record<string, string[]> = { peer1: [] }): Promise<string> {
  const { group_id } = await fx.client.call('group_create', { title: 'pty' });
  const dir = join(fx.home, 'scopes', group_id);
  mkdirSync(dir, { recursive: true });
  await fx.client.call('attach', { path: dir, group_id });
  for (const [actor_id, args] of Object.entries(actors)) {
    await fx.client.call('actor_add', { group_id, actor_id, runtime: 'custom', command: fakeAgentArgv(args) });
  }
  return group_id;
}

export async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function events(fx: DaemonFixture, gid: string): CCCSEventV1[] {
  return fx.ledgerLines(gid).map((l) => JSON.parse(l) as CCCSEventV1);
}

export function deliveries(fx: DaemonFixture, gid: string, sourceId: string): string[] {
  return events(fx, gid)
    .filter((e) => isEventOfKind(e, 'runtime.delivery'))
    .filter((e) => e.data.source_event_id === sourceId)
    .map((e) => `${e.data.actor_id}:${e.data.state}`);
}

/** Plain text of the actor's screen and scrollback. */
export async function screenOf(kernel: Kernel, gid: string, aid: string): Promise<string> {
  const session = kernel.runtimes.get(gid, aid)?.session;
  if (!session) return '';
  return (await terminalTail(session, { maxChars: 200_000 })).text;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
