import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { ActivityHub } from '../streams/activity-hub.js';
import type { HookChannel } from './hook-channel.js';

/** An accepted hook event, as the rest of the daemon hears of it. */
export interface HookAccepted {
  readonly groupId: string;
  readonly actorId: string;
  readonly runtime: string;
  readonly event: string;
  /** A UserPromptSubmit's prompt line marks (never its text): read to match deliveries, never stored. */
  readonly marks: readonly string[] | null;
  /** When the agent ran the hook (the hook process's start, ms since the epoch), when it said. */
  readonly firedAtMs: number | null;
}

/** What the hook commit path reaches: the hook channel (state in memory, written through), the locks, the activity fan-out, and who hears an accepted event. */
export interface HookDeps {
  readonly hookChannel: HookChannel;
  readonly groupLocks: KeyedMutex;
  readonly activity: Pick<ActivityHub, 'publish'>;
  readonly hookAccepted: (accepted: HookAccepted) => void;
}
