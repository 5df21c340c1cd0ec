import { isEventOfKind } from '@cccc/ipc-protocol';
import type { LedgerEvent } from '../types.js';

/**
 * Position (0-based append index) of the latest `actor.add` for the actor, or -1. An actor's
 * current generation is everything after it; inbox, history and delivery ignore earlier events.
 */
export function generationStart(events: readonly LedgerEvent[], actorId: string): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as LedgerEvent;
    if (isEventOfKind(e, 'actor.add') && e.data.actor.id === actorId) return i;
  }
  return -1;
}

/** `created_at` of the actor's current generation, which seeds its delivery ids. */
export function generationCreatedAt(events: readonly LedgerEvent[], actorId: string): string | undefined {
  const pos = generationStart(events, actorId);
  const add = events[pos];
  if (!add || !isEventOfKind(add, 'actor.add')) return undefined;
  return add.data.actor.created_at ?? '';
}

/** First position of an event id strictly before `before` (ids are unique in sane ledgers). */
export function firstPosition(events: readonly LedgerEvent[], id: string, before = events.length): number {
  for (let i = 0; i < before; i++) if ((events[i] as LedgerEvent).id === id) return i;
  return -1;
}
