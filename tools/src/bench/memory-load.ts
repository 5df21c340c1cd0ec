// The mixed client load of the memory section: paced senders, Inbox readers, ledger_tail and
// message_history readers, events_stream subscribers that read everything, and a subscriber
// that keeps reconnecting. Every call opens a fresh connection, as the CLI and MCP tools do.
import { setTimeout as sleep } from 'node:timers/promises';
import { DaemonClient } from '@cccc/ipc-protocol/node';

export interface SendSample {
  /** When the call started, ms since the load started. */
  readonly atMs: number;
  readonly ms: number;
}

export interface MixedLoadOptions {
  readonly home: string;
  readonly groupId: string;
  readonly durationMs: number;
  /** Total send rate over all senders (each paces its own share; late sends do not burst). */
  readonly sendsPerSecond: number;
  readonly senders?: number;
  /** Characters of each message's text. */
  readonly textBytes?: number;
  /** events_stream subscribers that read every item. */
  readonly readingSubscribers?: number;
  /** Start a background reader load (Inbox, tail, history, reconnecting subscriber); default true. */
  readonly readers?: boolean;
}

export interface MixedLoadResult {
  readonly sends: SendSample[];
  readonly errors: number;
  readonly reads: number;
  readonly streamItems: number;
  /** Epoch of the load in `performance.now()` terms (add to `atMs`). */
  readonly t0: number;
  /** How long the load ran for, as asked. */
  readonly durationMs: number;
}

const TEXT = 'please review the migration plan and reply with concerns about the rollout order; ';

export async function runMixedLoad(o: MixedLoadOptions): Promise<MixedLoadResult> {
  const senders = o.senders ?? 4;
  const text = TEXT.repeat(Math.ceil((o.textBytes ?? 200) / TEXT.length)).slice(0, o.textBytes ?? 200);
  const t0 = performance.now();
  const stopAt = t0 + o.durationMs;
  const running = () => performance.now() < stopAt;
  const sends: SendSample[] = [];
  let errors = 0;
  let reads = 0;
  let streamItems = 0;
  const client = new DaemonClient({ home: o.home });
  const gid = o.groupId;

  const sender = async (n: number) => {
    const interval = (1000 * senders) / o.sendsPerSecond;
    let next = performance.now() + (interval * n) / senders;
    for (let i = 0; running(); i++) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      // A sender that fell behind does not burst to catch up.
      next = Math.max(next + interval, performance.now() - interval);
      const to = i % 10 === 0 ? ['@all'] : [n % 2 ? 'peer1' : 'peer2'];
      const t = performance.now();
      try {
        await client.call('send', { group_id: gid, text: `${i} ${text}`, to, message_mode: 'mail', by: n % 2 ? 'user' : 'lead' });
        sends.push({ atMs: t - t0, ms: performance.now() - t });
      } catch {
        errors++;
      }
    }
  };

  const reader = async (step: () => Promise<unknown>, pauseMs: number) => {
    while (running()) {
      try {
        await step();
        reads++;
      } catch {
        errors++;
      }
      await sleep(pauseMs);
    }
  };

  const subscriber = async () => {
    const stream = await client.openEventsStream({ group_id: gid });
    const stop = setTimeout(() => stream.close(), Math.max(0, stopAt - performance.now()));
    try {
      for await (const item of stream) if (item.t === 'event') streamItems++;
    } finally {
      clearTimeout(stop);
    }
  };

  // Connects, reads a few events, closes: per-connection state must go when it does.
  const reconnecting = async () => {
    while (running()) {
      const stream = await client.openEventsStream({ group_id: gid, by: 'peer2', kinds: ['chat.message'] });
      let n = 0;
      const stop = setTimeout(() => stream.close(), 2000);
      for await (const item of stream) if (item.t === 'event' && ++n >= 10) break;
      clearTimeout(stop);
      stream.close();
      streamItems += n;
    }
  };

  const work: Array<Promise<unknown>> = [];
  for (let n = 0; n < senders; n++) work.push(sender(n));
  for (let n = 0; n < (o.readingSubscribers ?? 3); n++) work.push(subscriber());
  if (o.readers !== false) {
    work.push(
      reader(() => client.call('inbox_read', { group_id: gid, actor_id: 'peer1', limit: 50 }), 50),
      reader(() => client.call('inbox_peek', { group_id: gid, actor_id: 'peer2', limit: 20 }), 50),
      reader(() => client.call('ledger_tail', { group_id: gid, limit: 50, with_read_status: true }), 50),
      reader(() => client.call('message_history', { group_id: gid, actor_id: 'lead', limit: 20 }), 50),
      reconnecting(),
    );
  }
  await Promise.all(work);
  return { sends, errors, reads, streamItems, t0, durationMs: o.durationMs };
}

/** A group with a foreman and two peers (never started: Mail needs no runtime). */
export async function benchGroup(home: string, title: string): Promise<string> {
  const client = new DaemonClient({ home });
  const gid = (await client.call('group_create', { title })).group_id;
  for (const id of ['lead', 'peer1', 'peer2']) await client.call('actor_add', { group_id: gid, actor_id: id, runtime: 'custom', command: ['true'] });
  return gid;
}
