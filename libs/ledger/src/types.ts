import type { CCCSEventV1, EventInput, StoredEvent } from '@cccc/ipc-protocol';

/** A stored event. The reference never writes the optional `seq`, and neither do we. */
export type LedgerEvent = CCCSEventV1;

/**
 * What a caller asks to append; the store assigns id, ts and group_id. `data` is checked against
 * the kind's registry type at compile time (and its schema at run time).
 */
export type AppendInput<K extends string = string> = EventInput<K>;

export interface AppendResult<K extends string = string> {
  event: StoredEvent<K>;
  /** true when a `client_id` duplicate returned the original event instead of appending. */
  duplicate: boolean;
  /**
   * The event's JSON text exactly as written (the ledger line without its newline), when this
   * call appended it: an answer can splice it in instead of serializing the event again.
   */
  json?: string;
}

/** Role of an actor for selector matching; libs/groups owns the truth and passes it in. */
export type ActorRole = 'foreman' | 'peer' | 'internal';
export type RoleOf = (actorId: string) => ActorRole | undefined;

export type Clock = () => Date;

/** Hears each event the moment it is durable (see `OpenLedgerOptions.onAppended`). */
export type AppendedListener = (event: LedgerEvent) => void;
