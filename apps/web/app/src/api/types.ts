import type { OpArgsInput } from '@cccc/ipc-protocol';

// The wire types the app reads, inferred from the same zod schemas the daemon uses (types only:
// nothing of the protocol package is bundled).
export type {
  ActorListEntry,
  CCCSEventV1 as LedgerEvent,
  GroupDoc,
  GroupSummary,
  RecipientStatus,
  RuntimeListEntry,
  OpResult,
} from '@cccc/ipc-protocol';

/** How a runtime submits pasted input. */
export type SubmitMode = NonNullable<OpArgsInput<'actor_add'>['submit']>;
