// Public surface of @cccc/ledger: the group ledger store, its projections and errors.
export { FileLedgerStore } from './file-store.js';
export { openGroupLedger, type OpenLedgerOptions } from './open-ledger.js';
export { MemoryLedgerStore } from './memory-store.js';
export {
  type LedgerStore,
  type InboxConsumeResult,
  type HistoryRequest,
  type ClaimRequest,
  type ClaimResult,
  type DeliveryEvent,
  type SettleRequest,
  type FollowOptions,
  type Follower,
  type IntegrityReport,
  type TailRequest,
  type SearchRequest,
  DEFAULT_INBOX_LIMIT,
  DEFAULT_HISTORY_LIMIT,
  DEFAULT_TAIL_LIMIT,
  MAX_QUERY_LIMIT,
} from './store.js';
export type { AppendInput, AppendResult, AppendedListener, LedgerEvent, ActorRole, RoleOf, Clock } from './types.js';
export { LedgerErrorCodes, type LedgerErrorCode } from './errors.js';
export { ledgerPaths, type LedgerPaths } from './paths.js';
export { newEventId, formatTs, EVENT_ID_RE, TS_RE } from './event-format.js';
export { CHAT_TEXT_SPILL_BYTES, MAX_RECORD_BYTES, CLIENT_ID_WINDOW_MS } from './storage/limits.js';
export type { SnapshotReport } from './storage/snapshot.js';
export type { CompactReport } from './storage/compact.js';
export type { Manifest, ManifestSegment } from './storage/manifest.js';
export type { CursorEntry, PendingMarker } from './mail/cursor-files.js';
export type { ConsumePhase } from './mail/consume.js';
// Pure projections: the same rules the index-backed queries follow, usable without disk.
export { inboxUnread, inboxUnreadCount, mailWatermark, type InboxView, type InboxCursor, type InboxQuery } from './projections/inbox.js';
export { messageHistoryOf, type HistoryMode, type HistoryPage, type HistoryQuery } from './projections/history.js';
export { tailOf, searchOf, searchableText, type EventPage, type TailQuery, type SearchQuery } from './projections/pages.js';
export { undeliveredOf, type UndeliveredView } from './projections/undelivered.js';
export { replyObligationsOf, type ReplyObligation, type ObligationStatus } from './projections/obligations.js';
export {
  deliveryIdFor,
  deliveryStatesOf,
  claimRefusal,
  assertSettleAllowed,
  type DeliveryFact,
  type ClaimRefusal,
} from './projections/delivery.js';
export {
  deliveryConfirmationsOf,
  type ConfirmationFact,
  type ConfirmationState,
} from './projections/confirmation.js';
export { generationStart, generationCreatedAt } from './projections/generation.js';
export { recipientTokens, tokensAddressing, isAddressedTo } from './projections/recipients.js';
