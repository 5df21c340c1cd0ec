import { isEventOfKind, type ChatMessageData } from '@cccc/ipc-protocol';
import type { ActorRole, LedgerEvent, RoleOf } from '../types.js';

/**
 * Stored `to` tokens of a chat.message, normalized the way readers match them
 * (REFERENCE_NOTES §1.5): `@user` reads as `user`, and a legacy empty `to` is a broadcast.
 */
export function recipientTokens(data: Pick<ChatMessageData, 'to'>): string[] {
  const to = data.to ?? [];
  if (to.length === 0) return ['@all'];
  const out = new Set<string>();
  for (const token of to) out.add(token === '@user' ? 'user' : token);
  return [...out];
}

/** Tokens that address `actorId`: its id, and the selectors its role answers to. */
export function tokensAddressing(actorId: string, role: ActorRole | undefined): string[] {
  // Internal actors (e.g. the voice secretary) are reached only by explicit id.
  if (role === 'internal') return [actorId];
  const tokens = [actorId, '@all'];
  if (role === 'foreman') tokens.push('@foreman');
  else tokens.push('@peers');
  return tokens;
}

/** Unknown actors default to `peer`: everyone but the first actor is a peer in the reference. */
export function roleOrPeer(roleOf: RoleOf | undefined, actorId: string): ActorRole {
  return roleOf?.(actorId) ?? 'peer';
}

/** Does this message address the actor? The sender never receives its own message. */
export function isAddressedTo(event: LedgerEvent, actorId: string, role: ActorRole): boolean {
  if (!isEventOfKind(event, 'chat.message') || event.by === actorId) return false;
  const tokens = new Set(recipientTokens(event.data));
  return tokensAddressing(actorId, role).some((t) => tokens.has(t));
}

/** A chat.message's mode; '' for a legacy row without one (and for any other kind). */
export function messageMode(event: LedgerEvent): string {
  return isEventOfKind(event, 'chat.message') ? (event.data.message_mode ?? '') : '';
}

/** Concrete recipients of a request_reply: explicit actor ids, never selectors or the user. */
export function concreteRecipients(event: LedgerEvent): string[] {
  if (!isEventOfKind(event, 'chat.message')) return [];
  return recipientTokens(event.data).filter((t) => !t.startsWith('@') && t !== 'user' && t !== event.by);
}

/** The idempotency key of a chat.message, if it carries one (other kinds never do). */
export function chatClientId(event: LedgerEvent): string | undefined {
  return isEventOfKind(event, 'chat.message') ? event.data.client_id || undefined : undefined;
}
