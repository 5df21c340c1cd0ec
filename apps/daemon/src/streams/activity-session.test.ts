import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '@cccc/hook-fence';
import type { UpgradedConnection } from '@cccc/ipc-protocol';
import { ActivityHub } from './activity-hub.js';
import { ActivitySession } from './activity-session.js';

/** An in-memory connection: records lines, lets a test pretend the client stopped reading. */
function fakeConnection() {
  const lines: Array<Record<string, unknown>> = [];
  const conn = {
    pendingBytes: 0,
    closed: false,
    write(data: Uint8Array | string) {
      for (const l of String(typeof data === 'string' ? data : Buffer.from(data)).split('\n')) if (l) lines.push(JSON.parse(l));
      return true;
    },
    onData: () => ({ [Symbol.dispose]() {} }),
    onDrain: () => ({ [Symbol.dispose]() {} }),
    onClose: () => ({ [Symbol.dispose]() {} }),
    close() {
      conn.closed = true;
    },
  };
  return { conn: conn as UpgradedConnection & { pendingBytes: number }, lines };
}

const NOW = new Date('2026-11-30T12:00:00Z');
function entry(id: string, activity: string, status: 'started' | 'completed', ageMs = 0): ActivityEntry {
  const ts = new Date(NOW.getTime() - ageMs).toISOString();
  return {
    started_at: ts,
    record: {
      v: 1, id, ts, group_id: 'g_1', actor_id: 'peer1', runtime: 'claude', activity_id: activity, kind: 'tool', status,
      event_type: status === 'started' ? 'PreToolUse' : 'PostToolUse', session_id: 's', turn_id: null, operation_id: activity, tool_name: 'Bash', duration_ms: null,
    },
  };
}
const opts = { heartbeatMs: 60_000, maxPendingBytes: 1000, onEnd: () => {} };
const sent = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.t === 'runtime-activity').map((l) => (l.event as { id: string }).id);

describe('ActivitySession', () => {
  it('replay sends the snapshot view (old completions left out), then only unseen revisions in commit order', () => {
    const initial = [entry('r-old', 'a', 'completed', 60_000), entry('r1', 'b', 'started')];
    const s = new ActivitySession(initial, true, opts, NOW);
    const { conn, lines } = fakeConnection();
    // A commit between subscribing and the handshake being written is queued, not lost.
    s.update([...initial, entry('r2', 'c', 'started')]);
    s.attach(conn);
    expect(sent(lines)).toEqual(['r1', 'r2']);
    s.update([entry('r-old', 'a', 'completed'), entry('r1', 'b', 'started'), entry('r2', 'c', 'started'), entry('r3', 'b', 'completed'), entry('r4', 'd', 'started')].slice(2));
    expect(sent(lines)).toEqual(['r1', 'r2', 'r3', 'r4']);
  });

  it('replay=false starts from changes after the attach', () => {
    const s = new ActivitySession([entry('r1', 'b', 'started')], false, opts, NOW);
    const { conn, lines } = fakeConnection();
    s.attach(conn);
    expect(sent(lines)).toEqual([]);
    s.update([entry('r1', 'b', 'started'), entry('r2', 'c', 'started')]);
    expect(sent(lines)).toEqual(['r2']);
  });

  it('an unreadable store at attach: nothing replayed, and the next valid revision is sent', () => {
    const s = new ActivitySession(null, true, opts, NOW);
    const { conn, lines } = fakeConnection();
    s.attach(conn);
    expect(sent(lines)).toEqual([]);
    s.update([entry('r9', 'z', 'started')]);
    expect(sent(lines)).toEqual(['r9']);
  });

  it('ends a subscriber past the bounded queue with a final slow_subscriber item', () => {
    let ended = '';
    const hub = new ActivityHub();
    const s = new ActivitySession([], false, { ...opts, onEnd: (r) => (ended = r) }, NOW);
    hub.add('g_1', s);
    const { conn, lines } = fakeConnection();
    s.attach(conn);
    conn.pendingBytes = 5000;
    hub.publish('g_1', [entry('r1', 'a', 'started')]);
    expect(sent(lines)).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ t: 'error', code: 'slow_subscriber' });
    expect(ended).toBe('slow_subscriber');
    expect(s.isEnded).toBe(true);
  });

  it('a session whose handshake was never written ends on its own and leaves the hub', async () => {
    const hub = new ActivityHub();
    let remove = () => {};
    const s = new ActivitySession([], true, { ...opts, attachTimeoutMs: 20, onEnd: () => remove() }, NOW);
    remove = hub.add('g_1', s);
    hub.publish('g_1', [entry('r1', 'a', 'started')]);
    await new Promise((r) => setTimeout(r, 60));
    expect(s.isEnded).toBe(true);
    expect(hub.subscriberCount('g_1')).toBe(0);
  });
});
