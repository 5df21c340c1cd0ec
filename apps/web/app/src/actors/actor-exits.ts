import { isEventOfKind } from '@cccc/ipc-protocol/browser';
import type { LedgerEvent } from '../api/types';
import { english, type Translate } from '../i18n/plain';

// Why a stopped actor is not running when its start went fine: it ended by itself later. The
// daemon records that as `actor.stop` by system with reason `exited` and the exit status; a
// later start, restart or a stop someone asked for replaces it.

export interface ActorExit {
  readonly exitCode: number | null;
  readonly signal: string | number | null;
  readonly at: string;
}

export type ActorExits = ReadonlyMap<string, ActorExit>;

/** The actor an actor.start / stop / restart / remove event is about, else null. */
export function lifecycleActorId(event: LedgerEvent): string | null {
  if (isEventOfKind(event, 'actor.stop') || isEventOfKind(event, 'actor.start') || isEventOfKind(event, 'actor.restart') || isEventOfKind(event, 'actor.remove')) {
    return event.data.actor_id;
  }
  return null;
}

/** Apply lifecycle events in ledger order. Returns the same map when nothing changed. */
export function applyLifecycle(exits: ActorExits, events: readonly LedgerEvent[]): ActorExits {
  let next: Map<string, ActorExit> | undefined;
  const edit = () => (next ??= new Map(exits));
  for (const event of events) {
    if (isEventOfKind(event, 'actor.stop') && event.by === 'system' && event.data.reason === 'exited') {
      edit().set(event.data.actor_id, { exitCode: event.data.exit_code ?? null, signal: event.data.signal ?? null, at: event.ts });
    } else {
      const actorId = lifecycleActorId(event);
      if (actorId !== null && (next ?? exits).has(actorId)) edit().delete(actorId);
    }
  }
  return next ?? exits;
}

const bySignal = (exit: ActorExit): boolean => exit.signal !== null && exit.signal !== 0 && exit.signal !== '';

/** "code 130", "signal SIGKILL", or '' when the daemon recorded neither (in the page's language). */
export function exitDetail(exit: ActorExit, t: Translate = english): string {
  if (bySignal(exit)) return t('exit.detail.signal', { signal: exit.signal! });
  return exit.exitCode === null ? '' : t('exit.detail.code', { code: exit.exitCode });
}

/** "exited with code 130", "ended by signal SIGKILL", "exited" (in the page's language). */
export function exitText(exit: ActorExit, t: Translate = english): string {
  if (bySignal(exit)) return t('exit.signal', { signal: exit.signal! });
  return exit.exitCode === null ? t('exit.plain') : t('exit.code', { code: exit.exitCode });
}
