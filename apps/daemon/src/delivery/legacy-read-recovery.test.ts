import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemonFixture } from '../../test-support/daemon-fixture.js';
import { FAST_ENV, deliveries, events, screenOf, waitFor } from '../../test-support/daemon-fixture.js';

// The home the reference daemon wrote (group refbench, actor peer1 of its own generation).
const REFERENCE_HOME = '/work/shared/fixtures/reference-home';
const GID = 'g_30e7eb3af8cf';

type Fx = Awaited<ReturnType<typeof startDaemonFixture>>;

let seq = 0;
/** One ledger line as the pre-runtime.delivery reference wrote it (Python-style envelope). */
function legacyLine(kind: string, by: string, data: Record<string, unknown>): { id: string; line: string } {
  const id = randomBytes(16).toString('hex');
  const ts = `2026-11-30T09:00:00.${String(++seq).padStart(6, '0')}Z`;
  return { id, line: JSON.stringify({ v: 1, id, ts, kind, group_id: GID, scope_key: '', by, data }) + '\n' };
}

const nudge = (message: string, extra: Record<string, unknown> = {}) =>
  legacyLine('system.notify', 'system', { kind: 'nudge', priority: 'normal', title: 'Nudge', message, target_actor_id: 'peer1', im_visibility: 'internal', context: {}, ...extra });

describe('legacy chat.read watermark at recovery, on a home written by the reference daemon', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('nudges at or before the watermark (or about events before it) are never replayed; later ones are delivered', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-legacy-read-'));
    cpSync(REFERENCE_HOME, home, { recursive: true });
    const ledger = join(home, 'groups', GID, 'ledger.jsonl');
    // The reference's Send message of peer1's generation (accepted there already).
    const oldSend = '3a1e7837925b493fa696abf137734a58';
    const n1 = nudge('legacy nudge one');
    const n2 = nudge('legacy nudge two');
    const readN2 = legacyLine('chat.read', 'peer1', { actor_id: 'peer1', event_id: n2.id });
    const readN1 = legacyLine('chat.read', 'peer1', { actor_id: 'peer1', event_id: n1.id }); // not the furthest
    const aboutOld = nudge('legacy reminder about an old message', { related_event_id: oldSend });
    const aboutN1 = nudge('legacy reminder about nudge one', { context: { event_id: n1.id } });
    const fresh = nudge('fresh nudge after the watermark');
    const other = legacyLine('chat.read', 'user', { actor_id: 'someone-else', event_id: fresh.id });
    const fresh2 = nudge('second fresh nudge');
    const consumed = [n1, n2, aboutOld, aboutN1];
    for (const e of [n1, n2, readN2, readN1, aboutOld, aboutN1, fresh, other, fresh2]) appendFileSync(ledger, e.line);

    fx = await startDaemonFixture({ home, env: FAST_ENV });
    // The reference's scope path does not exist here: give the group a real one.
    const scope = join(home, 'scope');
    mkdirSync(scope);
    await fx.client.call('attach', { path: scope, group_id: GID });
    await fx.client.call('actor_update', { group_id: GID, actor_id: 'peer1', patch: { command: fakeAgentArgv([]) } });
    await fx.client.call('group_start', { group_id: GID });
    await fx.client.call('actor_start', { group_id: GID, actor_id: 'peer1' });

    const f = fx;
    for (const e of [fresh, fresh2]) await waitFor(() => deliveries(f, GID, e.id).includes('peer1:accepted'), 20_000, `accepted ${e.id}`);
    await waitFor(async () => (await screenOf(f, GID, 'peer1')).includes('second fresh nudge'), 10_000, 'second fresh nudge on screen');
    const screen = await screenOf(f, GID, 'peer1');
    expect(screen).toContain('fresh nudge after the watermark');
    for (const e of consumed) expect(deliveries(f, GID, e.id)).toEqual([]);
    expect(screen).not.toContain('legacy nudge');
    expect(screen).not.toContain('legacy reminder');
    // The legacy records stay in the ledger untouched; Mail state is not moved by chat.read.
    expect(events(f, GID).filter((e) => e.kind === 'chat.read')).toHaveLength(3);
  }, 60_000);
});
