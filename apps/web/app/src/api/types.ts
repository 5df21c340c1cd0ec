// The wire types the app reads, inferred from the same zod schemas the daemon uses (types only:
// nothing of the protocol package is bundled).
export type {
  ActorListEntry,
  CCCSEventV1 as LedgerEvent,
  GroupDoc,
  GroupSummary,
  RecipientStatus,
  OpResult,
} from '@cccc/ipc-protocol';
