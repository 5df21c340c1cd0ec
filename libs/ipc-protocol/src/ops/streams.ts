import { z } from 'zod';
import { defineOp } from './define.js';

/**
 * §8.15 / §4.5 events_stream: an NDJSON push stream after the handshake. The resume and filter
 * args are nullable as in the spec (null = not given). `actor_id` is kept for callers that ask
 * for an actor view explicitly; the spec's own route is a `by` naming an actor. The handshake's
 * `group_id` is optional only so handlers written before it was modelled still type-check.
 */
export const events_stream = defineOp({
  summary: 'Upgrade to a push stream of group events.',
  upgrade: 'ndjson_stream',
  args: () => z.object({
    group_id: z.string().min(1),
    by: z.string().optional(),
    actor_id: z.string().optional(),
    kinds: z.array(z.string()).nullish(),
    since_event_id: z.string().nullish(),
    since_ts: z.string().nullish(),
  }),
  result: () => z.looseObject({ group_id: z.string().optional() }),
});

/**
 * global_events_stream (extension, issue 4): pushes `{t:"event", event}` items for group and
 * actor changes across every group, plus heartbeats. There is no cross-group resume point:
 * clients reconcile with `groups` / `actor_list` after reconnecting.
 */
export const global_events_stream = defineOp({
  summary: 'Upgrade to a push stream of group and actor changes across all groups.',
  upgrade: 'ndjson_stream',
  args: () => z.object({ by: z.string().optional(), kinds: z.array(z.string()).nullish() }),
  result: () => z.looseObject({}),
});

const TermSize = { cols: z.number().int().optional(), rows: z.number().int().optional() };

export const TermAttachArgs = z.object({
  group_id: z.string().min(1),
  actor_id: z.string().min(1),
  by: z.string().optional(),
  since: z.number().int().nonnegative().optional(),
  mode: z.enum(['control', 'viewer']).optional(),
  takeover: z.boolean().optional(),
  bootstrap: z.literal('snapshot_v1').optional(),
  ...TermSize,
});

/** §8.11 term_attach handshake result. */
export const TermAttachHandshake = z.object({
  group_id: z.string(),
  actor_id: z.string(),
  attachment_id: z.number().int().positive().optional(),
  terminal_mode: z.enum(['control', 'viewer']),
  terminal_writable: z.boolean(),
  writer_replaced: z.boolean(),
  replay_cursor: z.number().int().nonnegative(),
  replay_end_cursor: z.number().int().nonnegative(),
  initial_output: z
    .object({
      kind: z.enum(['replay', 'snapshot']),
      bytes: z.number().int().nonnegative(),
      cursor: z.number().int().nonnegative(),
      cols: z.number().int().optional(),
      rows: z.number().int().optional(),
    })
    .optional(),
});
export type TermAttachHandshake = z.infer<typeof TermAttachHandshake>;

/** §4.4 / §8.11 term_attach: raw PTY bytes after the handshake. */
export const term_attach = defineOp({
  summary: 'Upgrade to a raw terminal stream of one actor.',
  upgrade: 'raw_stream',
  args: () => TermAttachArgs,
  result: () => TermAttachHandshake,
});
