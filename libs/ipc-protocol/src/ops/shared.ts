import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { MessageMode } from '../kinds/chat.js';
import { kindDataSchemas, type KnownKind } from '../kinds/registry.js';

// Building blocks shared by several op files. Each wire shape is defined once here.

/**
 * Identity arguments (§7.1). A required `group_id` / `actor_id` in an args schema makes the
 * router answer `missing_group_id` / `missing_actor_id`, so ops only use them where the spec
 * marks the key required; optional uses wrap them in `.optional()`.
 */
export const GroupIdArg = z.string().min(1);
export const ActorIdArg = z.string().min(1);
export const ProfileIdArg = z.string().min(1);
/** Caller-provided principal hint (§7.1); each handler applies its own default. */
export const ByArg = z.string().optional();
/** Page sizes: the handler clamps to its own maximum and applies the default when omitted. */
export const LimitArg = z.number().int().positive();
/** Exact-match event kind allowlist. */
export const EventKindsArg = z.array(z.string().min(1));

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/**
 * A boolean flag as the reference daemon reads it: JSON booleans, 0/1, and the usual spellings
 * `"true"/"false"`, `"1"/"0"`, `"yes"/"no"`, `"on"/"off"` (any case, trimmed), so a client that
 * sends `dry_run: "false"` gets a real run, not a dry one. Anything else is refused as
 * `invalid_request` naming the field, rather than silently taking a default that may persist.
 */
export const LooseBooleanArg = z.preprocess((value) => {
  if (value === 0 || value === 1) return value === 1;
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return value;
}, z.boolean());

/** A reply fulfils an obligation and can never create one (§8.6 reply, CCCS notes). */
export const ReplyMessageMode = MessageMode.exclude(['request_reply']);
export type ReplyMessageMode = z.infer<typeof ReplyMessageMode>;

/**
 * Legacy delivery selectors replaced by `message_mode` (§8.6): refused, never ignored, so an
 * old client cannot believe it asked for an acknowledgement it will not get.
 */
export const legacyMessageFields = {
  keys: ['priority', 'reply_required', 'requires_ack'],
  code: 'unsupported_message_fields',
} as const;

/**
 * Insight is carried as `unknown` in args: §8.6 wants a bad type or length answered with
 * `invalid_insight`, not the router's generic `invalid_request`. Handlers validate with this.
 */
export const InsightText = z.string().max(1200);
export const InsightArg = z.unknown().optional();

/** ReferenceV1 (CCCS notes, "Attachments and references"). Unknown extra fields are kept. */
export const TaskRefV1 = z.looseObject({
  kind: z.literal('task_ref'),
  task_id: z.string().min(1),
  title: z.string().optional(),
  status: z.string().optional(),
});
export const PresentationRefV1 = z.looseObject({ kind: z.literal('presentation_ref'), slot_id: z.string().min(1) });
export const LinkRefV1 = z.looseObject({
  kind: z.enum(['file', 'url', 'commit', 'text']).optional(),
  url: z.string().optional(),
  path: z.string().optional(),
  title: z.string().optional(),
  sha: z.string().optional(),
  bytes: z.number().int().nonnegative().optional(),
});
export const ReferenceV1 = z.union([TaskRefV1, PresentationRefV1, LinkRefV1]);
export type ReferenceV1 = z.infer<typeof ReferenceV1>;

/** An event result narrowed to the kind the spec names in its comment. */
export function eventOfKind<K extends KnownKind>(kind: K) {
  return CCCSEventV1.extend({ kind: z.literal(kind), data: kindDataSchemas[kind] });
}

/** `{ event }` results (reply_request_cancel, system_notify). */
export function eventResult<K extends KnownKind>(kind: K) {
  return z.object({ event: eventOfKind(kind) });
}

/** Argv with argument boundaries preserved (quotes, spaces and empty arguments intact). */
export const CommandArgv = z.array(z.string());
export const SubmitMode = z.enum(['enter', 'newline', 'none']);
export const RuntimeMode = z.enum(['default', 'acp']);
export const EnvMap = z.record(z.string(), z.string());

/** Write-only secret map edits (actor private env, profile secrets). `clear` wins (§8.4). */
export const secretUpdateArgs = {
  set: EnvMap.optional(),
  unset: z.array(z.string()).optional(),
  clear: z.boolean().optional(),
};
/** Secret key names only. Results holding them are strict so a leaked value fails the check. */
export const SecretKeys = z.array(z.string());
