import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg } from './shared.js';

// §8.16 IM Authentication (issue 30). Keys and chat ids default to '' so a blank or absent one is
// refused by the handler with the spec's missing_key / missing_chat_id rather than invalid_request.

/** Opaque platform thread id: a JSON number or a non-empty string; 0 means no thread. */
export const ImThreadIdV1 = z.union([z.number(), z.string()]);

const Key = z.string().max(256).default('');

export const im_bind_chat = defineOp({
  summary: 'Bind a pending one-time key: authorize its IM chat and subscribe it for outbound delivery.',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, key: Key }),
  result: () => z.object({ chat_id: z.string(), thread_id: ImThreadIdV1, platform: z.string() }),
});

export const im_list_authorized = defineOp({
  summary: 'List the authorized IM chats of a group.',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg }),
  result: () => z.object({ authorized: z.array(z.record(z.string(), z.unknown())) }),
});

export const ImPendingKeyV1 = z.object({
  key: z.string(),
  chat_id: z.string(),
  thread_id: ImThreadIdV1,
  platform: z.string(),
  created_at: z.number(),
  expires_at: z.number(),
  expires_in_seconds: z.number(),
});

export const im_list_pending = defineOp({
  summary: 'List pending one-time bind requests of a group (expired keys omitted).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg }),
  result: () => z.object({ pending: z.array(ImPendingKeyV1) }),
});

export const im_reject_pending = defineOp({
  summary: 'Reject a pending one-time bind key (idempotent).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, key: Key }),
  result: () => z.object({ rejected: z.boolean() }),
});

export const im_revoke_chat = defineOp({
  summary: 'Revoke an IM chat: its authorization and its subscription.',
  // Any JSON value is accepted: an unsupported thread_id type means "no thread" (0) per §8.16.
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, chat_id: z.string().max(512).default(''), thread_id: z.unknown().optional() }),
  result: () => z.object({ revoked: z.boolean(), unsubscribed: z.boolean().optional() }),
});

// Extension (issue 30): the group's IM bridge configuration. The bot token is write-only: it is
// stored under state/secrets and reads say only whether one is present.

export const ImPlatformV1 = z.enum(['telegram', 'slack', 'discord']);

export const ImConfigV1 = z.strictObject({
  platform: ImPlatformV1,
  enabled: z.boolean(),
  /** Outbound system.notify with im_visibility="public" is forwarded only when true. */
  forward_public_notify: z.boolean(),
  bot_token_present: z.boolean(),
  app_token_present: z.boolean(),
});
export type ImConfigV1 = z.infer<typeof ImConfigV1>;

const ConfigResult = z.object({ group_id: z.string(), im: ImConfigV1.nullable() });

export const im_config_get = defineOp({
  summary: 'Read the IM bridge configuration of a group (token presence only, never the token).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg }),
  result: () => ConfigResult,
});

export const im_config_set = defineOp({
  summary: 'Configure (or with unset, remove) the IM bridge of a group; tokens are stored as secrets.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    platform: ImPlatformV1.optional(),
    enabled: z.boolean().optional(),
    forward_public_notify: z.boolean().optional(),
    bot_token: z.string().max(4096).optional(),
    app_token: z.string().max(4096).optional(),
    /** Remove the configuration, the tokens and the three authority files (§8.16 explicit unset). */
    unset: z.boolean().optional(),
  }),
  result: () => ConfigResult,
});
