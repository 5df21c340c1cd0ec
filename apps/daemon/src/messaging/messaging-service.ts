import {
  activeScopeRoot,
  assertOtherGroup,
  assertReplyMode,
  checkPermission,
  crossGroupForwardData,
  crossGroupSourceData,
  messageData,
  messageScopeKey,
  notifyData,
  principalOf,
  readScopedFiles,
  replyData,
  sentMessage,
  sentReply,
  validateCrossGroup,
  validateMessage,
  validateReply,
  type HomeLayout,
  type SentMessage,
} from '@cccc/groups';
import { IpcError, isEventOfKind, PreserializedResult, type ChatMessageData, type EventOf, type OpArgs, type OpResult } from '@cccc/ipc-protocol';
import { LedgerErrorCodes, type LedgerStore } from '@cccc/ledger';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { CommitHooks } from '../kernel/commit-hooks.js';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import { assertStoredAttachments, storeBlobs } from './blobs.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';

type ChatEvent = EventOf<'chat.message'>;

export type SendOutcome = SentMessage;

/**
 * `JSON.stringify(sent)` without serializing the event again: `json` is the event's ledger
 * line, the same event's JSON text, and `{event, message_mode}` is sentMessage's key order.
 */
export function preserializedSent(sent: SentMessage, json: string): PreserializedResult<SentMessage> {
  return new PreserializedResult(sent, `{"event":${json},"message_mode":${JSON.stringify(sent.message_mode)}}`);
}

/** A chat.message target of reply / cancel, by id or unique id prefix. */
export function resolveChatMessage(store: LedgerStore, id: string, field: string): ChatEvent {
  const event = store.findById(id) ?? store.findByPrefix(id);
  if (!event || !isEventOfKind(event, 'chat.message')) {
    throw new IpcError(LedgerErrorCodes.eventNotFound, `${field}: no chat.message ${id} in this group`, { field, event_id: id });
  }
  return event;
}

const attachmentCount = (args: { attachments?: readonly unknown[] | undefined }) => args.attachments?.length ?? 0;

export interface MessagingDeps {
  readonly layout: HomeLayout;
  readonly groups: GroupDocCache;
  readonly ledgers: Pick<LedgerPool, 'get' | 'append'>;
  readonly groupLocks: KeyedMutex;
  /** Delivery planning runs before a send returns (its effects are in place when the caller hears back). */
  readonly commits: Pick<CommitHooks, 'messageCommitted'>;
}

/**
 * The §8.6 write paths: the rules are `@cccc/groups`' (who may send, routing, insight, the
 * message's data, the replay answer), the lookups the ledger's. Each validates everything first
 * (a rejected request writes nothing), then appends; the ledger pool fans the event out, and
 * delivery planning runs before the op returns.
 */
export class MessagingService {
  constructor(private readonly deps: MessagingDeps) {}

  /**
   * The group, its ledger, and the accepted message a `(by, client_id)` pair already names: it
   * is looked up before validation so a retried request replays its original result even if
   * the group changed since (§8.6).
   */
  private async context(groupId: string, by?: string, clientId?: string) {
    const group = this.deps.groups.get(groupId);
    const store = await this.deps.ledgers.get(groupId);
    const original = by !== undefined && clientId ? store.findByClientId(by, clientId) : undefined;
    return { group, store, original };
  }

  /** The message appended and planned; `json` is its ledger text when this call wrote it. */
  private async commit(groupId: string, by: string, scopeKey: string, data: ChatMessageData): Promise<{ sent: SentMessage; json: string | undefined }> {
    const { event, duplicate, json } = await this.deps.ledgers.append(groupId, { kind: 'chat.message', by, scope_key: scopeKey, data });
    if (!duplicate) await this.deps.commits.messageCommitted(groupId, event);
    return { sent: sentMessage(event), json };
  }

  async send(args: OpArgs<'send'>): Promise<SendOutcome> {
    return (await this.sendCommitted(args)).sent;
  }

  /** The send op's answer: the event's ledger text spliced in, not serialized a second time. */
  async sendAnswer(args: OpArgs<'send'>): Promise<SentMessage | PreserializedResult<SentMessage>> {
    const { sent, json } = await this.sendCommitted(args);
    return json === undefined ? sent : preserializedSent(sent, json);
  }

  private async sendCommitted(args: OpArgs<'send'>): Promise<{ sent: SentMessage; json: string | undefined }> {
    const by = principalOf(args.by);
    const { group, original } = await this.context(args.group_id, by, args.client_id);
    if (original) return { sent: sentMessage(original), json: undefined };
    if (args.attachments?.length) assertStoredAttachments(this.deps.layout.groupDir(args.group_id), args.attachments);
    const out = validateMessage(group, by, args, attachmentCount(args) > 0);
    return this.commit(args.group_id, by, messageScopeKey(group, args.path), messageData(args, out));
  }

  /** message_upload_preflight: the same deterministic checks, nothing written. */
  async preflight(args: OpArgs<'message_upload_preflight'>): Promise<OpResult<'message_upload_preflight'>> {
    const by = principalOf(args.by);
    if (args.operation === 'send_cross_group') {
      throw daemonError(DaemonErrorCodes.unsupportedOperation, 'local cross-group uploads are not supported', { operation: args.operation });
    }
    const { group, store, original } = await this.context(args.group_id, by, args.client_id);
    if (original) return { ready: false, duplicate: true, result: sentMessage(original) };
    const request = { ...args, text: args.text ?? '' };
    if (args.operation === 'reply') {
      const source = resolveChatMessage(store, args.reply_to ?? '', 'reply_to');
      assertReplyMode(args.message_mode);
      validateReply(group, by, source, request, args.has_attachments);
    } else {
      validateMessage(group, by, request, args.has_attachments);
    }
    return { ready: true };
  }

  async reply(args: OpArgs<'reply'>): Promise<OpResult<'reply'>> {
    const by = principalOf(args.by);
    const { group, store, original } = await this.context(args.group_id, by, args.client_id);
    if (original) return sentReply(original);
    const source = resolveChatMessage(store, args.reply_to, 'reply_to');
    if (args.attachments?.length) assertStoredAttachments(this.deps.layout.groupDir(args.group_id), args.attachments);
    const request = { ...args, message_mode: args.message_mode ?? 'send' };
    const out = validateReply(group, by, source, request, attachmentCount(args) > 0);
    return sentReply((await this.commit(args.group_id, by, source.scope_key, replyData(source, request, out))).sent.event);
  }

  async sendFiles(args: OpArgs<'send_files'>): Promise<SendOutcome> {
    const by = principalOf(args.by);
    const { group, original } = await this.context(args.group_id, by, args.client_id);
    if (original) return sentMessage(original);
    const files = readScopedFiles(activeScopeRoot(group), args.paths);
    const text = args.text ?? `[cccc] shared ${files.length} file(s): ${files.map((f) => f.rel_path).join(', ')}`;
    const out = validateMessage(group, by, { ...args, text }, true);
    const attachments = await storeBlobs(
      this.deps.layout.groupDir(args.group_id),
      files.map((f) => ({ name: f.rel_path, bytes: f.bytes })),
    );
    return (await this.commit(args.group_id, by, messageScopeKey(group), messageData({ ...args, text, attachments }, out))).sent;
  }

  async sendCrossGroup(args: OpArgs<'send_cross_group'>): Promise<OpResult<'send_cross_group'>> {
    const by = principalOf(args.by);
    assertOtherGroup(args.group_id, args.dst_group_id);
    const src = await this.context(args.group_id);
    const dst = await this.context(args.dst_group_id);
    const out = validateCrossGroup(src.group, dst.group, {
      by,
      srcGroupId: args.group_id,
      text: args.text,
      to: args.to,
      mode: args.message_mode,
      insight: args.insight,
      requirePeerInsight: args.require_peer_insight,
    });
    const source = (await this.commit(args.group_id, by, messageScopeKey(src.group), crossGroupSourceData(args, out))).sent;
    const forwarded = (
      await this.commit(
        args.dst_group_id,
        out.foreignBy,
        messageScopeKey(dst.group),
        crossGroupForwardData({ ...args, by, src_group_id: args.group_id, src_event_id: source.event.id }, out),
      )
    ).sent;
    return { src_event: source.event, dst_event: forwarded.event };
  }

  async cancelReplyRequest(args: OpArgs<'reply_request_cancel'>): Promise<OpResult<'reply_request_cancel'>> {
    const by = principalOf(args.by);
    const { group, store } = await this.context(args.group_id);
    const source = resolveChatMessage(store, args.source_event_id, 'source_event_id');
    if (source.data.message_mode !== 'request_reply') {
      throw daemonError(DaemonErrorCodes.notReplyRequest, 'only a request_reply message has reply obligations to cancel', {
        source_event_id: source.id,
        message_mode: source.data.message_mode ?? null,
      });
    }
    checkPermission(by, 'message.cancel', { actors: group.actors, sourceSenderId: source.by });
    return this.deps.groupLocks.run(`cancel:${args.group_id}:${source.id}`, async () => {
      const existing = store.findReplyRequestCancel(source.id);
      if (existing) return { event: existing };
      const { event } = await this.deps.ledgers.append(args.group_id, {
        kind: 'chat.reply_request.cancelled',
        by,
        scope_key: source.scope_key,
        data: { source_event_id: source.id },
      });
      return { event };
    });
  }

  async notify(args: OpArgs<'system_notify'>): Promise<OpResult<'system_notify'>> {
    const by = principalOf(args.by);
    const data = notifyData(this.deps.groups.get(args.group_id), by, args);
    const { event, duplicate } = await this.deps.ledgers.append(args.group_id, { kind: 'system.notify', by, data });
    if (!duplicate) await this.deps.commits.messageCommitted(args.group_id, event);
    return { event };
  }
}
