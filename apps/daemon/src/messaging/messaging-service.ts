import { activeScopeRoot, checkPermission, readScopedFiles, type GroupDoc, type HomeLayout, type MessageMode } from '@cccc/groups';
import {
  ErrorCodes,
  IpcError,
  isEventOfKind,
  type AttachmentRefV1,
  type ChatMessageData,
  type EventOf,
  type OpArgs,
  type OpResult,
  type SystemNotifyData,
} from '@cccc/ipc-protocol';
import { LedgerErrorCodes, type LedgerStore } from '@cccc/ledger';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { CommitHooks } from '../kernel/commit-hooks.js';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import { assertStoredAttachments, storeBlobs, type BlobSource } from './blobs.js';
import { findClientDuplicate } from './client-id.js';
import { assertKnownSender, validateOutgoing, type Outgoing } from './outgoing.js';
import { principalOf } from './principal.js';
import { quoteOf } from './quote.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';

type ChatEvent = EventOf<'chat.message'>;

export interface SendOutcome {
  readonly event: ChatEvent;
  readonly message_mode: MessageMode;
}

/** A legacy row without a mode reads as `send`. */
function modeOf(event: ChatEvent): MessageMode {
  return event.data.message_mode ?? 'send';
}

/**
 * A reply's result. A reply is never request_reply, so only a client_id first used by such a
 * send can name one: that is a client error, not a replay.
 */
function replayedReply(event: ChatEvent): OpResult<'reply'> {
  const mode = modeOf(event);
  if (mode === 'request_reply') {
    throw new IpcError(ErrorCodes.invalidRequest, 'client_id already names a request_reply message, which is not a reply', { field: 'client_id' });
  }
  return { event, message_mode: mode };
}

/**
 * Optional fields are omitted rather than written as null/[] (except `to`, always present).
 * Only undefined values and empty arrays go, so the result keeps `T`'s required fields.
 */
function dropEmpty<T extends Record<string, unknown>>(data: T): T {
  const kept = Object.entries(data).filter(([k, v]) => v !== undefined && (k === 'to' || !(Array.isArray(v) && v.length === 0)));
  return Object.fromEntries(kept) as T;
}

/** A chat.message target of reply / cancel, by id or unique id prefix. */
export function resolveChatMessage(store: LedgerStore, id: string, field: string): ChatEvent {
  const event = store.findById(id) ?? store.findByPrefix(id);
  if (!event || !isEventOfKind(event, 'chat.message')) {
    throw new IpcError(LedgerErrorCodes.eventNotFound, `${field}: no chat.message ${id} in this group`, { field, event_id: id });
  }
  return event;
}

export interface MessagingDeps {
  readonly layout: HomeLayout;
  readonly groups: GroupDocCache;
  readonly ledgers: Pick<LedgerPool, 'get' | 'append'>;
  readonly groupLocks: KeyedMutex;
  /** Delivery planning runs before a send returns (its effects are in place when the caller hears back). */
  readonly commits: Pick<CommitHooks, 'messageCommitted'>;
}

/**
 * The §8.6 write paths. Each validates everything first (a rejected request writes nothing),
 * then appends; the ledger pool fans the event out, and delivery planning runs before return.
 */
export class MessagingService {
  constructor(private readonly deps: MessagingDeps) {}

  private async context(groupId: string) {
    const group = this.deps.groups.get(groupId);
    const store = await this.deps.ledgers.get(groupId);
    return { group, store };
  }

  private scopeKeyFor(group: GroupDoc, path: string | undefined): string {
    if (path) {
      const match = (group.scopes ?? []).find((s) => s.url && (path === s.url || path.startsWith(s.url.endsWith('/') ? s.url : s.url + '/')));
      if (match) return match.scope_key;
    }
    return group.active_scope_key ?? '';
  }

  private async commit(groupId: string, by: string, scopeKey: string, data: ChatMessageData): Promise<SendOutcome> {
    const { event, duplicate } = await this.deps.ledgers.append(groupId, { kind: 'chat.message', by, scope_key: scopeKey, data });
    if (!duplicate) await this.deps.commits.messageCommitted(groupId, event);
    return { event, message_mode: modeOf(event) };
  }

  async send(args: OpArgs<'send'>): Promise<SendOutcome> {
    const by = principalOf(args.by);
    const { group, store } = await this.context(args.group_id);
    const dup = findClientDuplicate(store, by, args.client_id);
    if (dup) return { event: dup, message_mode: modeOf(dup) };
    assertStoredAttachments(this.deps.layout.groupDir(args.group_id), args.attachments);
    const out = this.validate(group, by, args, { hasAttachments: (args.attachments?.length ?? 0) > 0 });
    return this.commit(args.group_id, by, this.scopeKeyFor(group, args.path), this.messageData(args, out));
  }

  /** message_upload_preflight: the same deterministic checks, nothing written. */
  async preflight(args: OpArgs<'message_upload_preflight'>): Promise<OpResult<'message_upload_preflight'>> {
    const by = principalOf(args.by);
    if (args.operation === 'send_cross_group') {
      throw daemonError(DaemonErrorCodes.unsupportedOperation, 'local cross-group uploads are not supported', { operation: args.operation });
    }
    const { group, store } = await this.context(args.group_id);
    const dup = findClientDuplicate(store, by, args.client_id);
    if (dup) return { ready: false, duplicate: true, result: { event: dup, message_mode: modeOf(dup) } };
    if (args.operation === 'reply') {
      const source = resolveChatMessage(store, args.reply_to ?? '', 'reply_to');
      this.validateReplyMode(args.message_mode);
      validateOutgoing(group, {
        by,
        text: args.text ?? '',
        to: args.to,
        mode: args.message_mode,
        hasAttachments: args.has_attachments,
        insight: args.insight,
        requirePeerInsight: args.require_peer_insight,
        replyTo: source.id,
        fallbackTo: [source.by],
      });
    } else {
      this.validate(group, by, { ...args, text: args.text ?? '' }, { hasAttachments: args.has_attachments });
    }
    return { ready: true };
  }

  async reply(args: OpArgs<'reply'>): Promise<OpResult<'reply'>> {
    const by = principalOf(args.by);
    const { group, store } = await this.context(args.group_id);
    const dup = findClientDuplicate(store, by, args.client_id);
    if (dup) return replayedReply(dup);
    const source = resolveChatMessage(store, args.reply_to, 'reply_to');
    assertStoredAttachments(this.deps.layout.groupDir(args.group_id), args.attachments);
    const mode = args.message_mode ?? 'send';
    const out = validateOutgoing(group, {
      by,
      text: args.text,
      to: args.to,
      mode,
      hasAttachments: (args.attachments?.length ?? 0) > 0,
      insight: args.insight,
      requirePeerInsight: args.require_peer_insight,
      replyTo: source.id,
      fallbackTo: [source.by],
    });
    const data = dropEmpty<ChatMessageData>({
      text: args.text,
      format: 'plain',
      to: out.routing.to,
      message_mode: mode,
      reply_to: source.id,
      quote_text: quoteOf(source.data.text),
      insight: out.insight ?? undefined,
      attachments: args.attachments,
      refs: args.refs,
      client_id: args.client_id,
    });
    return replayedReply((await this.commit(args.group_id, by, source.scope_key, data)).event);
  }

  async sendFiles(args: OpArgs<'send_files'>): Promise<SendOutcome> {
    const by = principalOf(args.by);
    const { group, store } = await this.context(args.group_id);
    const dup = findClientDuplicate(store, by, args.client_id);
    if (dup) return { event: dup, message_mode: modeOf(dup) };
    const files = readScopedFiles(activeScopeRoot(group), args.paths);
    const sources: BlobSource[] = files.map((f) => ({ name: f.rel_path, bytes: f.bytes }));
    const text = args.text ?? `[cccc] shared ${files.length} file(s): ${files.map((f) => f.rel_path).join(', ')}`;
    const out = this.validate(group, by, { ...args, text }, { hasAttachments: true });
    const attachments = await storeBlobs(this.deps.layout.groupDir(args.group_id), sources);
    return this.commit(args.group_id, by, group.active_scope_key ?? '', this.messageData({ ...args, text, attachments }, out));
  }

  async sendCrossGroup(args: OpArgs<'send_cross_group'>): Promise<OpResult<'send_cross_group'>> {
    const by = principalOf(args.by);
    if (args.dst_group_id === args.group_id) {
      throw new IpcError(ErrorCodes.invalidRequest, 'dst_group_id must name another group', { field: 'dst_group_id' });
    }
    const src = await this.context(args.group_id);
    const dst = await this.context(args.dst_group_id);
    // The sender must exist at the source; at the destination it is a foreign principal.
    assertKnownSender(src.group, by);
    if (args.text.trim() === '') throw daemonError(DaemonErrorCodes.emptyMessage, 'message text is empty');
    const foreignBy = by === 'user' || by === 'system' || by.startsWith('svc:') ? by : `${by}@${args.group_id}`;
    const out = validateOutgoing(dst.group, {
      by: 'system',
      text: args.text,
      to: args.to,
      mode: args.message_mode,
      hasAttachments: false,
      insight: args.insight,
      requirePeerInsight: args.require_peer_insight,
    });
    const insight = out.insight ?? undefined;
    const source = await this.commit(args.group_id, by, src.group.active_scope_key ?? '', dropEmpty<ChatMessageData>({
      text: args.text,
      format: 'plain',
      to: ['user'],
      message_mode: 'send',
      insight,
      dst_group_id: args.dst_group_id,
      dst_to: out.routing.to,
      dst_message_mode: args.message_mode,
    }));
    const forwarded = await this.commit(args.dst_group_id, foreignBy, dst.group.active_scope_key ?? '', dropEmpty<ChatMessageData>({
      text: args.text,
      format: 'plain',
      to: out.routing.to,
      message_mode: args.message_mode,
      insight,
      src_group_id: args.group_id,
      src_event_id: source.event.id,
      src_by: by,
    }));
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
    const group = this.deps.groups.get(args.group_id);
    if (by !== 'user' && by !== 'system' && !by.startsWith('svc:') && !group.actors.some((a) => a.id === by)) {
      throw new IpcError(ErrorCodes.permissionDenied, `unknown principal ${by} for this group`, { by });
    }
    const target = args.target_actor_id ?? null;
    if (target !== null && !group.actors.some((a) => a.id === target)) {
      throw new IpcError(ErrorCodes.actorNotFound, `no actor ${target} in this group`, { actor_id: target });
    }
    const data = dropEmpty<SystemNotifyData>({
      kind: args.kind ?? 'info',
      priority: args.priority ?? 'normal',
      title: args.title ?? '',
      message: args.message ?? '',
      target_actor_id: target,
      im_visibility: args.im_visibility ?? 'internal',
      context: args.context ?? {},
    });
    const { event, duplicate } = await this.deps.ledgers.append(args.group_id, { kind: 'system.notify', by, data });
    if (!duplicate) await this.deps.commits.messageCommitted(args.group_id, event);
    return { event };
  }

  private validateReplyMode(mode: MessageMode): void {
    if (mode === 'request_reply') {
      throw new IpcError(ErrorCodes.invalidRequest, 'a reply uses message_mode send or mail', { field: 'message_mode' });
    }
  }

  private validate(
    group: GroupDoc,
    by: string,
    args: { text: string; to?: string[] | undefined; message_mode: MessageMode; insight?: unknown; require_peer_insight?: boolean | undefined },
    opts: { hasAttachments: boolean },
  ): Outgoing {
    return validateOutgoing(group, {
      by,
      text: args.text,
      to: args.to,
      mode: args.message_mode,
      hasAttachments: opts.hasAttachments,
      insight: args.insight,
      requirePeerInsight: args.require_peer_insight,
    });
  }

  private messageData(
    args: {
      text: string;
      message_mode: MessageMode;
      attachments?: AttachmentRefV1[] | undefined;
      refs?: unknown[] | undefined;
      client_id?: string | undefined;
      src_group_id?: string | undefined;
      src_event_id?: string | undefined;
      dst_group_id?: string | undefined;
      dst_to?: string[] | undefined;
      dst_message_mode?: MessageMode | undefined;
    },
    out: Outgoing,
  ): ChatMessageData {
    return dropEmpty<ChatMessageData>({
      text: args.text,
      format: 'plain',
      to: out.routing.to,
      message_mode: args.message_mode,
      insight: out.insight ?? undefined,
      attachments: args.attachments,
      refs: args.refs,
      src_group_id: args.src_group_id,
      src_event_id: args.src_event_id,
      dst_group_id: args.dst_group_id,
      dst_to: args.dst_to,
      dst_message_mode: args.dst_message_mode,
      client_id: args.client_id,
    });
  }
}

