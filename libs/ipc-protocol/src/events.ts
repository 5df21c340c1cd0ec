import { z } from 'zod';

/** CCCS v1 event envelope (shared/design/CCCS_V1_NOTES.md). */
export const EventId = z.string().regex(/^[0-9a-f]{32}$/, 'an event id is 32 lowercase hex');

export const CCCSEventV1 = z
  .object({
    v: z.literal(1),
    id: z.string().min(1),
    ts: z.string().min(1),
    seq: z.number().int().optional(),
    kind: z.string().min(1),
    group_id: z.string(),
    scope_key: z.string(),
    by: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .strict();
export type CCCSEventV1 = z.infer<typeof CCCSEventV1>;

/** §4.5: items pushed on an `events_stream` upgrade. Unknown `t` values are ignorable. */
export const EventStreamEventItem = z.object({ t: z.literal('event'), event: CCCSEventV1 });
export const EventStreamHeartbeatItem = z.object({ t: z.literal('heartbeat'), ts: z.string() });
export const EventStreamErrorItem = z.object({ t: z.literal('error'), code: z.string(), message: z.string() });
export const EventStreamItem = z.union([
  EventStreamEventItem,
  EventStreamHeartbeatItem,
  EventStreamErrorItem,
  z.looseObject({ t: z.string() }),
]);
export type EventStreamItem = z.infer<typeof EventStreamItem>;
