import type { CCCSEventV1, UpgradedConnection } from '@cccc/ipc-protocol';
import { describe, expect, it } from 'vitest';
import { StreamSession, type EventSource } from './stream-session.js';

/** A connection that records what is written to it. */
function recordingConnection(): UpgradedConnection & { writes: Array<Uint8Array | string> } {
  const writes: Array<Uint8Array | string> = [];
  const none = { [Symbol.dispose]: () => {} };
  return {
    writes,
    write: (data) => (writes.push(data), true),
    onData: () => none,
    onDrain: () => none,
    onClose: () => none,
    pendingBytes: 0,
    closed: false,
    close: () => {},
  };
}

const event = (n: number): CCCSEventV1 =>
  ({ v: 1, id: n.toString(16).padStart(32, '0'), ts: '2026-12-01T00:00:00.000000Z', kind: 'chat.message', group_id: 'g_x', scope_key: '', by: 'user', data: { text: `m${n}` } }) as CCCSEventV1;

// Issue 20: each subscriber encoded each event into a string of its own, which its socket then
// copied again; 20 stuck subscribers held 20 copies of everything queued.
describe('StreamSession', () => {
  it('subscribers of the same events write one shared buffer per event', () => {
    const shared = [event(1), event(2)];
    const source = (): EventSource => {
      let done = false;
      return { poll: () => (done ? [] : ((done = true), shared)), close: () => {} };
    };
    const options = { accept: () => true, heartbeatMs: 60_000, maxPendingBytes: 1 << 20, onEnd: () => {} };
    const [a, b] = [recordingConnection(), recordingConnection()];
    const sessions = [new StreamSession(a, source(), options), new StreamSession(b, source(), options)];
    for (const s of sessions) s.pump();
    expect(a.writes).toHaveLength(2);
    expect(Buffer.isBuffer(a.writes[0])).toBe(true);
    expect(JSON.parse(a.writes[0]!.toString())).toEqual({ t: 'event', event: shared[0] });
    a.writes.forEach((w, i) => expect(b.writes[i]).toBe(w));
    for (const s of sessions) s.end('client closed');
  });
});
