import { isEventOfKind, isValidEventOfKind, type CCCSEventV1 } from '@cccc/ipc-protocol';

/**
 * §8.6 compatibility boundary for ledgers written before `runtime.delivery` existed. Such a
 * ledger has no delivery evidence for the nudges (`system.notify`) an actor already consumed;
 * what it has is the former `chat.read {actor_id, event_id}` record. Recovery reads a
 * same-generation `chat.read.event_id` as an inclusive ledger watermark for that actor (not as
 * a receipt for that one event), so already-consumed nudges are not replayed after an upgrade.
 * Mail is unaffected: only `mail.read` moves the Mail cursor (§8.7).
 *
 * Pure: positions are ledger append-order positions supplied by the caller.
 */

/** A `chat.read` record of one actor, found while walking its current generation. */
export interface LegacyRead {
  /** Position of the chat.read record itself. */
  readonly position: number;
  /** Position of the event it names, or undefined when that id is not in the ledger. */
  readonly targetPosition: number | undefined;
}

/** The event id a legacy `chat.read` of `actorId` names, or undefined for any other event. */
export function legacyReadTarget(event: CCCSEventV1, actorId: string): string | undefined {
  // Written only by old daemons, so its data is checked here rather than trusted.
  if (!isValidEventOfKind(event, 'chat.read') || event.data.actor_id !== actorId) return undefined;
  return event.data.event_id;
}

/**
 * The furthest valid referenced position, or null when no record gives a boundary. A target
 * before the current generation (`generationStart` is the position of its `actor.add`), after
 * its own chat.read record, or missing from the ledger is invalid and ignored.
 */
export function legacyReadWatermark(reads: readonly LegacyRead[], generationStart: number): number | null {
  let best: number | null = null;
  for (const { position, targetPosition } of reads) {
    if (position < generationStart) continue; // a record of an earlier generation
    if (targetPosition === undefined || targetPosition < generationStart || targetPosition > position) continue;
    if (best === null || targetPosition > best) best = targetPosition;
  }
  return best;
}

/** The event ids a notification is about: `data.event_id`, `data.related_event_id`, `data.context.event_id`. */
export function notifyReferences(notify: CCCSEventV1): string[] {
  if (!isEventOfKind(notify, 'system.notify')) return [];
  const { event_id, related_event_id, context } = notify.data;
  // `context` is an open record by the spec; its event_id is one more reference when it is a string.
  const nested = context?.['event_id'];
  return [event_id, related_event_id, nested].filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * Whether a notification that recovery would queue again was already consumed under the
 * watermark: it sits at or before it, or it is a later one about an event at or before it.
 * Anything that is not a `system.notify` is never excluded here.
 */
export function consumedUnderWatermark(
  notify: CCCSEventV1,
  position: number,
  watermark: number | null,
  positionOf: (id: string) => number | undefined,
): boolean {
  if (watermark === null || notify.kind !== 'system.notify') return false;
  if (position <= watermark) return true;
  return notifyReferences(notify).some((id) => {
    const referenced = positionOf(id);
    return referenced !== undefined && referenced <= watermark;
  });
}

/**
 * Recovery's filter: `pending` without the notifications consumed under the watermark that the
 * actor's `chat.read` records (`reads`, by record id and named id) establish. `generationAddId`
 * is the `actor.add` that starts the current generation; positions come from `positionOf`, so
 * only the few events involved are looked up.
 */
export function withoutConsumedLegacyNudges<E extends CCCSEventV1>(
  pending: readonly E[],
  reads: ReadonlyArray<{ id: string; targetId: string }>,
  generationAddId: string | undefined,
  positionOf: (id: string) => number | undefined,
): E[] {
  const generationStart = generationAddId === undefined ? 0 : (positionOf(generationAddId) ?? 0);
  const located = reads.flatMap((r) => {
    const position = positionOf(r.id);
    return position === undefined ? [] : [{ position, targetPosition: positionOf(r.targetId) }];
  });
  const watermark = legacyReadWatermark(located, generationStart);
  if (watermark === null) return [...pending];
  return pending.filter((e) => !consumedUnderWatermark(e, positionOf(e.id) ?? Number.POSITIVE_INFINITY, watermark, positionOf));
}
