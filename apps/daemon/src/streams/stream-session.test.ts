import type { CCCSEventV1, UpgradedConnection } from '@cccc/ipc-protocol';
import { describe, expect, it } from 'vitest';
import { StreamHub } from './stream-hub.js';
import { StreamSession, type EventSource } from './stream-session.js';

/** A connection that never sends: every write stays queued, like a subscriber that stopped reading. */
class StuckConnection implements UpgradedConnection {
  readonly written: Array<Uint8Array | string> = [];
  write(data: Uint8Array | string): boolean {
    this.written.push(data);
    return false;
  }
  onData = () => ({ [Symbol.dispose]: () => {} });
  onDrain = () => ({ [Symbol.dispose]: () => {} });
  onClose = () => ({ [Symbol.dispose]: () => {} });
  get pendingBytes(): number {
    return this.written.reduce((n, d) => n + (typeof d === 'string' ? Buffer.byteLength(d) : d.byteLength), 0);
  }
  closed = false;
  close(): void {
    this.closed = true;
  }
}

const event = (id: string): CCCSEventV1 => ({ v: 1, id, ts: 't', kind: 'chat.message', group_id: 'g', scope_key: '', by: 'user', data: { text: 'x'.repeat(1000) } }) as CCCSEventV1;

/** Each subscriber has its own follower: the same events, parsed into objects of its own. */
function source(ids: string[]): EventSource {
  let pending = ids.map(event);
  return { poll: () => pending.splice(0), close: () => (pending = []) };
}

describe('StreamSession fan-out (issue 20 point 2)', () => {
  it('subscribers of one append share the encoded bytes of each event instead of holding a copy each', () => {
    const hub = new StreamHub();
    const connections = [new StuckConnection(), new StuckConnection(), new StuckConnection()];
    for (const c of connections) {
      const session = new StreamSession(c, source(['e1', 'e2']), { accept: () => true, heartbeatMs: 60_000, maxPendingBytes: 1 << 20, onEnd: () => {} });
      hub.add('g', session);
    }
    hub.notify('g');
    const [first, ...others] = connections.map((c) => c.written);
    expect(first).toHaveLength(2);
    // Bytes (an object every socket queue can reference), not a string converted per socket.
    for (const chunk of first!) expect(chunk).toBeInstanceOf(Uint8Array);
    expect(JSON.parse(Buffer.from(first![0] as Uint8Array).toString('utf8'))).toMatchObject({ t: 'event', event: { id: 'e1' } });
    for (const written of others) for (const [i, chunk] of written.entries()) expect(chunk).toBe(first![i]);
    hub.closeAll();
  });
});
