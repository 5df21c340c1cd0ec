import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { actorHookKey } from '@cccc/hook-fence';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventStreamItem } from '@cccc/ipc-protocol';
import type { EventStream } from '@cccc/ipc-protocol/node';
import { claudeGroup as claudeGroupOf, hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { runtimeFixture, waitFor } from '../../test-support/daemon-fixture.js';

// runtime_activity_stream against the real hook path: a fake agent installed as `claude` runs
// the built `cccc hook claude-state` for its lifecycle; the daemon fences, commits and publishes.

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;


const claudeGroup = (fx: Fx) => claudeGroupOf(fx, { title: 'activity-stream' });

/** Collects a stream's items in the background. */
function collector(stream: EventStream) {
  const items: EventStreamItem[] = [];
  void (async () => {
    for await (const item of stream) items.push(item);
  })();
  const records = () =>
    items.filter((i) => i.t === 'runtime-activity').map((i) => (i as unknown as { event: { id: string; kind: string; status: string; activity_id: string } }).event);
  return { items, records, close: () => stream.close() };
}

const statePath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'claude-hook-state', `${actorHookKey(gid, 'peer1')}.json`);

/** Start the group and wait for the launch's fenced SessionStart (Claude sessions make no record). */
async function started(fx: Fx, gid: string): Promise<void> {
  await fx.client.call('group_start', { group_id: gid });
  await waitFor(() => existsSync(statePath(fx, gid)) && JSON.parse(readFileSync(statePath(fx, gid), 'utf8')).session_id, 30_000, 'SessionStart');
}

const send = (fx: Fx, gid: string, text: string) => fx.client.call('send', { group_id: gid, text, to: ['peer1'], message_mode: 'send' });

const storePath = (fx: Fx, gid: string) => join(fx.home, 'groups', gid, 'state', 'runtime-activity', 'events.json');

describe('runtime_activity_stream', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('replay=false sends only live revisions; replay=true the snapshot first; then both the same revisions in order', { timeout: 150_000 }, async () => {
    fx = await hookedRuntimeFixture({ CCCC_STREAM_HEARTBEAT_MS: '200' });
    const caps = (await fx.client.call('ping', {})).capabilities as Record<string, unknown>;
    expect(caps.runtime_activity_stream).toBe(true);
    const gid = await claudeGroup(fx);
    await started(fx, gid);

    const live = collector(await fx.client.openRuntimeActivityStream({ group_id: gid, replay: false }));
    await send(fx, gid, 'first tool');
    // A custom runtime is handed the start-up prompt as a turn of its own just before the first
    // message, so this send makes two tool turns; both must have ended before the snapshot, or a
    // revision still in flight would reach the late stream live.
    await waitFor(() => live.records().filter((r) => r.kind === 'tool' && r.status === 'completed').length >= 2, 30_000, 'live tool completions');
    expect(live.records().filter((r) => r.kind === 'tool').map((r) => r.status)).toEqual(['started', 'completed', 'started', 'completed']);

    const snapshot = (await fx.client.call('runtime_activity_snapshot', { group_id: gid })).events;
    expect(snapshot.length).toBeGreaterThan(0);
    const replayed = collector(await fx.client.openRuntimeActivityStream({ group_id: gid, replay: true }));
    const lateLive = collector(await fx.client.openRuntimeActivityStream({ group_id: gid, replay: false }));
    await waitFor(() => replayed.records().length >= snapshot.length, 5000, 'replay');
    expect(replayed.records().map((r) => r.id)).toEqual(snapshot.map((e) => e.id));
    await waitFor(() => lateLive.items.some((i) => i.t === 'heartbeat'), 5000, 'heartbeat');
    expect(lateLive.records()).toEqual([]);

    const seen = live.records().length;
    await send(fx, gid, 'second tool');
    await waitFor(() => live.records().filter((r) => r.kind === 'tool' && r.status === 'completed').length >= 3, 30_000, 'second completion');
    const fresh = live.records().slice(seen).map((r) => r.id);
    await waitFor(() => replayed.records().length >= snapshot.length + fresh.length && lateLive.records().length >= fresh.length, 5000, 'fan-out');
    expect(replayed.records().slice(snapshot.length).map((r) => r.id)).toEqual(fresh);
    expect(lateLive.records().map((r) => r.id)).toEqual(fresh);
    const all = live.records().map((r) => r.id);
    expect(new Set(all).size).toBe(all.length);
    for (const c of [live, replayed, lateLive]) c.close();
  });

  it('a corrupt store: the snapshot answers runtime_activity_unavailable, streams stay open and resume with the next valid revision', { timeout: 150_000 }, async () => {
    fx = await hookedRuntimeFixture({ CCCC_STREAM_HEARTBEAT_MS: '200' });
    const gid = await claudeGroup(fx);
    await started(fx, gid);
    const attached = collector(await fx.client.openRuntimeActivityStream({ group_id: gid, replay: false }));
    await send(fx, gid, 'before corruption');
    // Two tool turns: the start-up prompt's own, then the message's (see above).
    await waitFor(() => attached.records().filter((r) => r.status === 'completed').length >= 2, 30_000, 'first tools');
    // The turn's Stop commits the store too: corrupt it only after that (http hooks land it within
    // milliseconds of the last PostToolUse, so it could overwrite the corrupt file).
    await waitFor(() => (JSON.parse(readFileSync(statePath(fx!, gid), 'utf8')) as { event?: string }).event === 'Stop', 30_000, "the turn's Stop");
    const seen = attached.records().length;

    writeFileSync(storePath(fx, gid), '{"not": "a store"');
    const err = await fx.client.call('runtime_activity_snapshot', { group_id: gid }).then(() => null, (e: { code: string }) => e.code);
    expect(err).toBe('runtime_activity_unavailable');
    const fresh = collector(await fx.client.openRuntimeActivityStream({ group_id: gid, replay: true }));
    // While corrupt, hook events are refused and nothing is sent; heartbeats keep both open.
    await send(fx, gid, 'tool while corrupt');
    await waitFor(() => fresh.items.filter((i) => i.t === 'heartbeat').length >= 5, 20_000, 'heartbeats');
    expect(fresh.records()).toEqual([]);
    expect(attached.records().length).toBe(seen);

    // The operator drops the buffer (an empty buffer is safe); the next accepted revision flows.
    rmSync(storePath(fx, gid));
    await send(fx, gid, 'tool after repair');
    await waitFor(() => fresh.records().some((r) => r.kind === 'tool'), 30_000, 'revision after repair (fresh stream)');
    await waitFor(() => attached.records().length > seen, 5000, 'revision after repair (attached stream)');
    expect(fresh.items.some((i) => i.t === 'error')).toBe(false);
    fresh.close();
    attached.close();
  });

  it('an unknown group is refused at the handshake', async () => {
    fx = await hookedRuntimeFixture();
    const code = await fx.client.openRuntimeActivityStream({ group_id: 'g_000000000000' }).then(() => null, (e: { code: string }) => e.code);
    expect(code).toBe('group_not_found');
  });
});
