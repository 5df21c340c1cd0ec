import { z } from 'zod';
import { kindDataSchemas, type KindData, type KindDataInput, type KnownKind } from './kinds/registry.js';

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

/** A stored event of a known kind, its `data` typed by the kind registry. */
export type EventOf<K extends KnownKind> = Omit<CCCSEventV1, 'kind' | 'data'> & { kind: K; data: KindData<K> };

/** Every known event, discriminated by `kind`. */
export type KnownEvent = { [K in KnownKind]: EventOf<K> }[KnownKind];

/** What a writer appends: the store stamps id, ts and group_id. `data` is typed by `kind`. */
export interface EventInput<K extends string = string> {
  kind: K;
  by: string;
  data: KindDataInput<K>;
  scope_key?: string;
}

/**
 * Narrows a stored event by kind after checking its data against the kind's schema: for records
 * this implementation never appends itself (legacy kinds such as `chat.read`), whose data no
 * append ever validated.
 */
export function isValidEventOfKind<K extends KnownKind>(event: CCCSEventV1, kind: K): event is CCCSEventV1 & EventOf<K> {
  return event.kind === kind && kindDataSchemas[kind].safeParse(event.data).success;
}

/** Narrows an append input by kind, the way `isEventOfKind` narrows a stored event. */
export function isInputOfKind<K extends KnownKind>(input: EventInput, kind: K): input is EventInput<K> {
  return input.kind === kind;
}

/** An event of kind `K` as a writer gets it back: typed for a known kind, open otherwise. */
export type StoredEvent<K extends string> = K extends KnownKind ? CCCSEventV1 & EventOf<K> : CCCSEventV1;

/** §4.5: items pushed on an `events_stream` upgrade. Unknown `t` values are ignorable. */
export const EventStreamEventItem = z.object({ t: z.literal('event'), event: CCCSEventV1 });
export const EventStreamHeartbeatItem = z.object({ t: z.literal('heartbeat'), ts: z.string() });
/**
 * The final item of a stream the daemon ends. `details` is our extension: for `slow_subscriber`,
 * `{queued_bytes, limit}` (bytes queued for the subscriber, socket buffers included, and the cap).
 */
export const EventStreamErrorItem = z.object({ t: z.literal('error'), code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() });
export const EventStreamItem = z.union([
  EventStreamEventItem,
  EventStreamHeartbeatItem,
  EventStreamErrorItem,
  z.looseObject({ t: z.string() }),
]);
export type EventStreamItem = z.infer<typeof EventStreamItem>;
