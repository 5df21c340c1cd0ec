import { z } from 'zod';
import type { ImThreadId } from '../adapter.js';
import { normalizeThreadId, threadKey } from './thread-id.js';

/** A one-time bind key lives this long (the reference's ten minutes). */
export const KEY_TTL_SECONDS = 600;

const ThreadIdField = z.unknown().transform(normalizeThreadId);

/** `im_pending_keys.json`: one-time key → the chat that asked (times in epoch seconds). */
export const PendingEntry = z.looseObject({
  chat_id: z.coerce.string(),
  thread_id: ThreadIdField,
  platform: z.coerce.string().catch(''),
  created_at: z.number().catch(0),
  expires_at: z.number().optional(),
});
export type PendingEntry = z.infer<typeof PendingEntry>;

/** `im_authorized_chats.json`: target key → the authorized chat. */
export const AuthorizedEntry = z.looseObject({
  chat_id: z.coerce.string(),
  thread_id: ThreadIdField,
  platform: z.coerce.string().catch(''),
  authorized_at: z.number().catch(0),
  // Not z.coerce: a missing field must not become the string "undefined".
  key_used: z.union([z.string(), z.number()]).transform(String).catch(''),
  authorization_source: z.string().catch('binding_key'),
});
export type AuthorizedEntry = z.infer<typeof AuthorizedEntry>;

/** `im_subscribers.json`: target key → delivery preferences (reference shape). */
export const SubscriberEntry = z.looseObject({
  subscribed: z.boolean().catch(true),
  verbose: z.boolean().catch(false),
  paused: z.boolean().catch(false),
  subscribed_at: z.string().catch(''),
  chat_title: z.string().catch(''),
  thread_id: ThreadIdField,
  platform: z.string().catch(''),
});
export type SubscriberEntry = z.infer<typeof SubscriberEntry>;

/** The three authority files of one group, as one value a transaction reads and rewrites. */
export interface ImAuthorityState {
  pending: Record<string, PendingEntry>;
  authorized: Record<string, AuthorizedEntry>;
  subscribers: Record<string, SubscriberEntry>;
}

export const emptyState = (): ImAuthorityState => ({ pending: {}, authorized: {}, subscribers: {} });

/** Parses one file's object entry by entry; a malformed entry is dropped, never the whole file. */
export function parseEntries<T>(raw: unknown, schema: z.ZodType<T>): Record<string, T> {
  const out: Record<string, T> = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return out;
  for (const [key, value] of Object.entries(raw)) {
    const parsed = schema.safeParse(value);
    if (parsed.success && key.trim() !== '') out[key] = parsed.data;
  }
  return out;
}

export interface ImTarget {
  readonly chat_id: string;
  readonly thread_id: ImThreadId;
  readonly platform: string;
}

export interface PendingView extends ImTarget {
  readonly key: string;
  readonly created_at: number;
  readonly expires_at: number;
  readonly expires_in_seconds: number;
}

const expiresAt = (e: PendingEntry) => e.expires_at ?? e.created_at + KEY_TTL_SECONDS;

/** Drops expired keys; returns whether anything was removed. */
export function purgeExpired(state: ImAuthorityState, nowS: number): boolean {
  let removed = false;
  for (const [key, entry] of Object.entries(state.pending)) {
    if (expiresAt(entry) <= nowS) {
      delete state.pending[key];
      removed = true;
    }
  }
  return removed;
}

/**
 * Records a pending key for a chat. A chat asking again while its earlier key is still live gets
 * that same key back, so a chatty unknown chat cannot fill the file with keys.
 */
export function addPending(state: ImAuthorityState, target: ImTarget, key: string, nowS: number): string {
  purgeExpired(state, nowS);
  const tk = threadKey(target.chat_id, target.thread_id);
  for (const [existing, entry] of Object.entries(state.pending)) {
    if (threadKey(entry.chat_id, entry.thread_id) === tk && entry.platform === target.platform) return existing;
  }
  state.pending[key] = {
    chat_id: target.chat_id,
    thread_id: normalizeThreadId(target.thread_id),
    platform: target.platform,
    created_at: nowS,
    expires_at: nowS + KEY_TTL_SECONDS,
  };
  return key;
}

export function listPending(state: ImAuthorityState, nowS: number): PendingView[] {
  return Object.entries(state.pending)
    .filter(([, e]) => expiresAt(e) > nowS)
    .map(([key, e]) => ({
      key,
      chat_id: e.chat_id,
      thread_id: normalizeThreadId(e.thread_id),
      platform: e.platform,
      created_at: e.created_at,
      expires_at: expiresAt(e),
      expires_in_seconds: Math.max(0, Math.floor(expiresAt(e) - nowS)),
    }))
    .sort((a, b) => b.created_at - a.created_at);
}

/** Binds a live key: authorizes and subscribes its chat and consumes the key (one transaction). */
export function bindKey(state: ImAuthorityState, key: string, nowS: number): ImTarget | undefined {
  purgeExpired(state, nowS);
  const entry = state.pending[key];
  if (!entry) return undefined;
  delete state.pending[key];
  const target: ImTarget = { chat_id: entry.chat_id, thread_id: normalizeThreadId(entry.thread_id), platform: entry.platform };
  const tk = threadKey(target.chat_id, target.thread_id);
  state.authorized[tk] = {
    chat_id: target.chat_id,
    thread_id: target.thread_id,
    platform: target.platform,
    authorized_at: nowS,
    key_used: key,
    authorization_source: 'binding_key',
  };
  const prior = state.subscribers[tk];
  state.subscribers[tk] = {
    ...(prior ?? { verbose: false, paused: false, chat_title: '' }),
    subscribed: true,
    subscribed_at: prior?.subscribed_at || new Date(nowS * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    thread_id: target.thread_id,
    platform: target.platform.toLowerCase(),
  };
  return target;
}

export function rejectKey(state: ImAuthorityState, key: string, nowS: number): boolean {
  purgeExpired(state, nowS);
  if (!(key in state.pending)) return false;
  delete state.pending[key];
  return true;
}

/** Revokes a chat's authorization and removes its subscription in the same transaction. */
export function revokeChat(
  state: ImAuthorityState,
  chatId: string,
  threadId: unknown,
): { revoked: boolean; unsubscribed: boolean } {
  const tk = threadKey(chatId, threadId);
  const revoked = tk in state.authorized;
  const unsubscribed = tk in state.subscribers;
  delete state.authorized[tk];
  delete state.subscribers[tk];
  return { revoked, unsubscribed };
}

export function isAuthorized(state: ImAuthorityState, target: ImTarget): boolean {
  const entry = state.authorized[threadKey(target.chat_id, target.thread_id)];
  if (!entry) return false;
  return entry.platform === '' || target.platform === '' || entry.platform.toLowerCase() === target.platform.toLowerCase();
}

/** Where outbound messages go: authorized, subscribed and not paused targets. */
export function deliveryTargets(state: ImAuthorityState): Array<ImTarget & { readonly verbose: boolean }> {
  const out: Array<ImTarget & { readonly verbose: boolean }> = [];
  for (const [tk, sub] of Object.entries(state.subscribers)) {
    const auth = state.authorized[tk];
    if (!auth || !sub.subscribed || sub.paused) continue;
    out.push({ chat_id: auth.chat_id, thread_id: normalizeThreadId(auth.thread_id), platform: auth.platform, verbose: sub.verbose });
  }
  return out;
}
