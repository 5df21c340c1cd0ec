import { effectiveRole, isVisibleActor } from './actors.js';
import { groupError } from './errors.js';
import type { ActorDoc } from './schemas/actor.js';
import type { DefaultSendTo } from './schemas/group.js';

export type MessageMode = 'send' | 'request_reply' | 'mail';
export type RecipientActor = Pick<ActorDoc, 'id' | 'title' | 'enabled'> & { internal_kind?: string | null };

export const SELECTORS = ['@all', '@peers', '@foreman'] as const;
export type Selector = (typeof SELECTORS)[number];
const SELECTOR_SET = new Set<string>(SELECTORS);

/** Split a `to` input (string, comma list or array) into trimmed, non-empty, de-duplicated tokens. */
export function splitRecipientTokens(to: string | readonly string[] | undefined | null): string[] {
  const raw = to === undefined || to === null ? [] : typeof to === 'string' ? [to] : [...to];
  const out: string[] = [];
  for (const item of raw) {
    for (const part of String(item).split(',')) {
      const token = part.trim();
      if (token && !out.includes(token)) out.push(token);
    }
  }
  return out;
}

/**
 * Write-time normalisation of one token (REFERENCE_NOTES §1.5): selectors kept; `user`/`@user`
 * → `user`; `#group` rejected; `@x` stripped; then an exact actor id, else a unique
 * case-insensitive title match. Anything else is `invalid_recipient`.
 */
export function normalizeRecipientToken(token: string, actors: readonly RecipientActor[]): string {
  const t = token.trim();
  const lower = t.toLowerCase();
  if (SELECTOR_SET.has(lower)) return lower;
  if (lower === 'user' || lower === '@user') return 'user';
  if (t.startsWith('#')) {
    throw groupError('invalid_recipient', `group recipients (${t}) are not supported; use send_cross_group`, { token: t });
  }
  const name = t.startsWith('@') ? t.slice(1) : t;
  if (!name) throw groupError('invalid_recipient', `invalid recipient: ${t}`, { token: t });
  const exact = actors.find((a) => a.id === name);
  if (exact) return exact.id;
  const folded = name.toLowerCase();
  const byTitle = actors.filter((a) => a.title && a.title.toLowerCase() === folded);
  if (byTitle.length === 1) return byTitle[0]!.id;
  if (byTitle.length > 1) {
    throw groupError('invalid_recipient', `recipient ${t} is ambiguous: ${byTitle.map((a) => a.id).join(', ')}`, {
      token: t,
      candidates: byTitle.map((a) => a.id),
    });
  }
  throw groupError('invalid_recipient', `unknown recipient: ${t}`, { token: t });
}

export function normalizeRecipientTokens(to: string | readonly string[] | undefined | null, actors: readonly RecipientActor[]): string[] {
  const out: string[] = [];
  for (const token of splitRecipientTokens(to)) {
    const normalized = normalizeRecipientToken(token, actors);
    if (!out.includes(normalized)) out.push(normalized);
  }
  return out;
}

/** `messaging.default_send_to` as the `to` a new non-request_reply send gets when it names nobody. */
export function defaultRecipients(defaultSendTo: DefaultSendTo | undefined): string[] {
  return defaultSendTo === 'broadcast' ? ['@all'] : ['@foreman'];
}

/**
 * Does a stored `to` address this actor? `@all` = every visible actor; `@peers` = role peer;
 * `@foreman` = role foreman; an id = itself; `user` never routes to an actor; an empty `to`
 * (legacy) is a broadcast. Internal actors match only their explicit id. Sender exclusion is
 * separate (`isRecipientOf`).
 */
export function toMatchesActor(to: readonly string[], actor: RecipientActor, actors: readonly RecipientActor[]): boolean {
  if (to.includes(actor.id)) return true;
  if (!isVisibleActor(actor)) return false;
  if (to.length === 0) return true;
  const role = effectiveRole(actors as ActorDoc[], actor.id);
  return to.some((token) => token === '@all' || (token === '@peers' && role === 'peer') || (token === '@foreman' && role === 'foreman'));
}

/** Matching plus sender exclusion: the sender never receives its own message. */
export function isRecipientOf(message: { by: string; to: readonly string[] }, actor: RecipientActor, actors: readonly RecipientActor[]): boolean {
  return message.by !== actor.id && toMatchesActor(message.to, actor, actors);
}

export interface ResolveInput {
  by: string;
  to?: string | readonly string[] | null;
  mode: MessageMode;
  actors: readonly RecipientActor[];
  defaultSendTo?: DefaultSendTo;
  /** For replies: recipients used when `to` is empty (the original sender), instead of default_send_to. */
  fallbackTo?: readonly string[];
}

export interface ResolvedRecipients {
  /** The canonical `to` stored in `chat.message`. */
  to: string[];
  audience: 'user' | 'agents';
  /** Actor ids the message addresses after sender exclusion (disabled ones included). */
  recipient_ids: string[];
  /** The subset that is enabled. */
  enabled_recipient_ids: string[];
}

function enabledForeman(actors: readonly RecipientActor[], mode: MessageMode): string {
  const foreman = actors.find(isVisibleActor);
  if (!foreman || !foreman.enabled) {
    throw groupError('no_enabled_recipients', `${mode} needs an enabled foreman to address`, { reason: 'no_enabled_foreman' });
  }
  return foreman.id;
}

/**
 * Resolve a send's recipients: normalise tokens, materialise defaults, apply the one-audience,
 * Mail and request_reply rules, then match actors and exclude the sender.
 *
 * - `request_reply`: omitted recipients and `@foreman` become the enabled foreman's id;
 *   `@all`/`@peers` fail with `concrete_recipients_required`.
 * - `user` with agents → `mixed_recipient_kinds`; Mail to `user` → `mail_requires_actor_recipient`.
 * - Nobody left after excluding the sender → `no_enabled_recipients`. For an agent sender's
 *   send/request_reply every remaining recipient must not be disabled-only: if none is enabled
 *   it is `no_enabled_recipients` too. A user's send may address disabled actors (the daemon
 *   enables them first); Mail may always address disabled actors (it only fills the Inbox).
 */
export function resolveRecipients(input: ResolveInput): ResolvedRecipients {
  const { by, mode, actors } = input;
  if (mode !== 'send' && mode !== 'request_reply' && mode !== 'mail') {
    throw groupError('invalid_message_mode', `message_mode must be send|request_reply|mail`, { message_mode: String(mode) });
  }
  let to = normalizeRecipientTokens(input.to, actors);
  if (to.length === 0) {
    if (input.fallbackTo && input.fallbackTo.length > 0) to = normalizeRecipientTokens(input.fallbackTo, actors);
    else if (mode === 'request_reply') to = [enabledForeman(actors, mode)];
    else to = defaultRecipients(input.defaultSendTo);
  }
  if (mode === 'request_reply') {
    const broadcast = to.filter((t) => t === '@all' || t === '@peers');
    if (broadcast.length > 0) {
      throw groupError('concrete_recipients_required', `request_reply needs concrete recipients, not ${broadcast.join(', ')}`, {
        tokens: broadcast,
      });
    }
    to = [...new Set(to.map((t) => (t === '@foreman' ? enabledForeman(actors, mode) : t)))];
  }
  const hasUser = to.includes('user');
  if (hasUser && to.length > 1) {
    throw groupError('mixed_recipient_kinds', 'a message addresses either the user or agents, not both', { to });
  }
  if (hasUser && mode === 'mail') {
    throw groupError('mail_requires_actor_recipient', 'Mail can only be addressed to agents; use send for the user', { to });
  }
  if (hasUser) {
    if (by === 'user') throw groupError('no_enabled_recipients', 'the user cannot address a message to itself', { to });
    return { to, audience: 'user', recipient_ids: [], enabled_recipient_ids: [] };
  }
  const recipients = actors.filter((a) => a.id !== by && toMatchesActor(to, a, actors));
  const enabled = recipients.filter((a) => a.enabled);
  const agentLiveSend = by !== 'user' && by !== '' && mode !== 'mail';
  if (recipients.length === 0 || (agentLiveSend && enabled.length === 0)) {
    throw groupError('no_enabled_recipients', 'no enabled recipient remains after excluding the sender', {
      to,
      reason: recipients.length === 0 ? 'no_match_after_sender_exclusion' : 'all_recipients_disabled',
    });
  }
  return { to, audience: 'agents', recipient_ids: recipients.map((a) => a.id), enabled_recipient_ids: enabled.map((a) => a.id) };
}
