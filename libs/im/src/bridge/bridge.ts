import { setTimeout as sleep } from 'node:timers/promises';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { DaemonCallError } from '@cccc/ipc-protocol/node';
import { ImAuthError, type ImAdapter, type ImInboundMessage } from '../adapter.js';
import { ImAuthority } from '../authority/authority.js';
import { threadKey } from '../authority/thread-id.js';
import { BridgeStateStore } from './bridge-state.js';
import { outboundText, type OutboundSettings } from './outbound.js';

/** What the bridge needs from the daemon: a user send and the group's event stream. */
export interface BridgeDaemon {
  /** Appends the user's message; idempotent on `client_id`. Rejects with a `code` when refused. */
  send(args: { group_id: string; text: string; client_id: string }): Promise<void>;
  /** The group's events after `sinceEventId` (new ones only without it); ends when the daemon ends it. */
  events(groupId: string, sinceEventId: string | undefined, signal: AbortSignal): AsyncIterable<CCCSEventV1>;
}

export type BridgeLog = (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

export interface ImBridgeOptions extends OutboundSettings {
  readonly groupId: string;
  readonly stateDir: string;
  readonly adapter: ImAdapter;
  readonly daemon: BridgeDaemon;
  readonly log: BridgeLog;
  /** Attempts per outbound post before it is given up (a chat that refuses must not block the rest). */
  readonly sendAttempts?: number;
  readonly retryDelayMs?: number;
}

/** A refusal from the daemon (it has a stable code): retrying the same request cannot help. */
const refusalCode = (err: unknown): string | undefined => (err instanceof DaemonCallError ? err.code : undefined);

export function bindInstructions(key: string): string {
  return `This chat is not connected to a CCCC group yet. On the computer running CCCC, run:\n\ncccc im bind ${key}\n\n(or bind it in the Web settings, IM tab). The key is valid for 10 minutes.`;
}

/**
 * One group's bridge between its IM chat(s) and its ledger. Inbound: an unknown chat gets a
 * one-time key; an authorized chat's message becomes a user send, idempotent on the update id
 * (the daemon keeps `client_id` durably, so a duplicate or a re-delivery after a crash is never
 * posted twice). Outbound: events for the user (and public notifications, when enabled) go to
 * the subscribed chats, each post remembered by event and target so a restart never repeats
 * one. Authorization and subscriptions are read fresh under the authority lock every time.
 */
export class ImBridge {
  private readonly authority: ImAuthority;
  private readonly state: BridgeStateStore;

  constructor(private readonly options: ImBridgeOptions) {
    this.authority = new ImAuthority(options.stateDir);
    this.state = new BridgeStateStore(options.stateDir);
  }

  /** Runs until `signal` aborts (resolves) or a side fails for good (rejects; the supervisor restarts). */
  async run(signal: AbortSignal): Promise<void> {
    await this.state.load();
    const inner = new AbortController();
    const abort = () => inner.abort();
    signal.addEventListener('abort', abort, { once: true });
    if (signal.aborted) inner.abort();
    const { adapter, log } = this.options;
    let first: unknown;
    const side = (work: Promise<void>, what: string) =>
      work
        .then(() => {
          if (!signal.aborted) throw new Error(`${what} ended while the bridge should run`);
        })
        .catch((err: unknown) => {
          // The first failure stops the other side too; the bridge reports that first one.
          first ??= err;
          inner.abort();
        });
    try {
      await Promise.all([
        side(adapter.run({ onMessage: (m) => this.inbound(m), signal: inner.signal, log }), 'the adapter'),
        side(this.outboundLoop(inner.signal), 'the event stream'),
      ]);
      if (first !== undefined && !signal.aborted) throw first;
    } finally {
      signal.removeEventListener('abort', abort);
      inner.abort();
    }
  }

  async inbound(m: ImInboundMessage): Promise<void> {
    const { groupId, adapter, daemon, log } = this.options;
    const target = { chat_id: m.chat_id, thread_id: m.thread_id, platform: m.platform };
    const updateKey = `${m.platform}:${m.chat_id}:${m.update_id}`;
    if (!(await this.authority.isAuthorized(target))) {
      if (this.state.hasSeen(updateKey)) return;
      const key = await this.authority.requestKey(target);
      await adapter.send({ chat_id: m.chat_id, thread_id: m.thread_id, text: bindInstructions(key) });
      await this.state.markSeen(updateKey);
      log('info', 'unknown chat asked to connect; pending key issued', { platform: m.platform });
      return;
    }
    try {
      await daemon.send({ group_id: groupId, text: m.text, client_id: `im:${updateKey}` });
    } catch (err) {
      const code = refusalCode(err);
      if (code === undefined) throw err; // not stored: the adapter offers the update again
      log('warn', 'daemon refused an IM message', { code });
      if (!this.state.hasSeen(updateKey)) {
        await adapter.send({ chat_id: m.chat_id, thread_id: m.thread_id, text: `Not delivered to the group (${code}).` });
        await this.state.markSeen(updateKey);
      }
    }
  }

  private async outboundLoop(signal: AbortSignal): Promise<void> {
    const { groupId, log } = this.options;
    let since = this.state.cursor;
    for (;;) {
      try {
        for await (const event of this.options.daemon.events(groupId, since, signal)) {
          await this.outbound(event, signal);
          await this.state.advance(event.id);
        }
        return;
      } catch (err) {
        // A cursor the ledger no longer holds (an imported or rebuilt group) would fail every
        // restart the same way: follow from now instead, and say so.
        if (since === undefined || refusalCode(err) !== 'event_not_found') throw err;
        log('warn', 'the outbound cursor is no longer in the ledger; following new events from now');
        since = undefined;
      }
    }
  }

  async outbound(event: CCCSEventV1, signal: AbortSignal): Promise<void> {
    const text = outboundText(event, this.options);
    if (text === undefined) return;
    const { adapter, log } = this.options;
    const attempts = this.options.sendAttempts ?? 5;
    for (const target of await this.authority.targets()) {
      if (target.platform && target.platform !== adapter.platform) continue;
      const postKey = `${event.id}|${target.platform}:${threadKey(target.chat_id, target.thread_id)}`;
      if (this.state.hasPosted(postKey)) continue;
      // Claimed durably before the post: a crash between the two loses this one post rather
      // than repeating it after the restart (never posted twice). A send that failed for sure
      // releases the claim and is retried.
      await this.state.markPosted(postKey);
      for (let attempt = 1; ; attempt++) {
        try {
          await adapter.send({ chat_id: target.chat_id, thread_id: target.thread_id, text }, signal);
          break;
        } catch (err) {
          // A rejected token sent nothing, so the post is owed after the fix; an abort mid-post
          // may have sent it, so its claim stays.
          if (err instanceof ImAuthError) await this.state.unmarkPosted(postKey);
          if (err instanceof ImAuthError || signal.aborted) throw err;
          if (attempt >= attempts) {
            log('error', 'giving up an outbound post', { event_id: event.id, error: err instanceof Error ? err.name : 'unknown' });
            break;
          }
          await sleep((this.options.retryDelayMs ?? 1000) * attempt, undefined, { signal });
        }
      }
    }
  }
}
