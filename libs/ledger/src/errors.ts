import { IpcError } from '@cccc/ipc-protocol';

/**
 * Stable error codes of the ledger domain. They travel as IpcError codes so the daemon can map
 * them to the wire in one place without string matching on messages.
 */
export const LedgerErrorCodes = {
  eventTooLarge: 'event_too_large',
  invalidEvent: 'invalid_event',
  eventNotFound: 'event_not_found',
  ambiguousEventId: 'ambiguous_event_id',
  malformedLedger: 'ledger_malformed',
  segmentConflict: 'ledger_segment_conflict',
  cursorVanished: 'ledger_cursor_vanished',
  illegalDeliveryTransition: 'illegal_delivery_transition',
  deliveryInProgress: 'delivery_in_progress',
  ledgerClosed: 'ledger_closed',
  writeFailed: 'ledger_write_failed',
} as const;

export type LedgerErrorCode = (typeof LedgerErrorCodes)[keyof typeof LedgerErrorCodes];

export function ledgerError(code: LedgerErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}

export function hasCode(err: unknown, code: LedgerErrorCode): boolean {
  return err instanceof IpcError && err.code === code;
}
