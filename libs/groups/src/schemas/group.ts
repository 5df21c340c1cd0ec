import { z } from 'zod';
import { ActorDoc } from './actor.js';

export const GroupState = z.enum(['active', 'idle', 'paused', 'stopped']);
export type GroupState = z.infer<typeof GroupState>;

export const ScopeRef = z.looseObject({
  scope_key: z.string(),
  url: z.string().default(''),
  label: z.string().default(''),
  git_remote: z.string().default(''),
});
export type ScopeRef = z.infer<typeof ScopeRef>;

/** `groups/<gid>/scopes/<scope_key>/scope.yaml`. */
export const ScopeDoc = z.looseObject({
  v: z.number().int().default(1),
  scope_key: z.string(),
  url: z.string().default(''),
  label: z.string().default(''),
  git_remote: z.string().default(''),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type ScopeDoc = z.infer<typeof ScopeDoc>;

export const DefaultSendTo = z.enum(['foreman', 'broadcast']);
export type DefaultSendTo = z.infer<typeof DefaultSendTo>;

export const TranscriptVisibility = z.enum(['off', 'foreman', 'all']);

/** `groups/<gid>/group.yaml` (`kernel/group.py`). Unknown keys survive every rewrite. */
export const GroupDoc = z.looseObject({
  v: z.number().int().default(1),
  group_id: z.string(),
  title: z.string().default('working-group'),
  topic: z.string().default(''),
  created_at: z.string().default(''),
  updated_at: z.string().default(''),
  running: z.boolean().default(false),
  state: GroupState.default('active'),
  active_scope_key: z.string().default(''),
  scopes: z.array(ScopeRef).default([]),
  actors: z.array(ActorDoc).default([]),
  messaging: z
    .looseObject({
      default_send_to: DefaultSendTo.optional(),
      root_body_policy: z.enum(['off', 'summary']).optional(),
    })
    .optional(),
  delivery: z
    .looseObject({
      min_interval_seconds: z.number().optional(),
      mail_notice_after_seconds: z.number().optional(),
      reply_notice_after_seconds: z.number().optional(),
    })
    .optional(),
  terminal_transcript: z
    .looseObject({
      visibility: TranscriptVisibility.optional(),
      notify_tail: z.boolean().optional(),
      notify_lines: z.number().optional(),
    })
    .optional(),
});
export type GroupDoc = z.infer<typeof GroupDoc>;
