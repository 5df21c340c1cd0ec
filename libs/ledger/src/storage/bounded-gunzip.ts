import { gunzipSync } from 'node:zlib';
import { LedgerErrorCodes, ledgerError } from '../errors.js';

/**
 * `gunzipSync` that stops at `maxBytes` of output: zlib aborts the inflate at the limit, so a
 * small file that inflates to gigabytes costs at most the limit, and is reported as a malformed
 * ledger file (`what` names it) instead of being held.
 */
export function gunzipAtMost(packed: Buffer, maxBytes: number, what: string): Buffer {
  try {
    return gunzipSync(packed, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw gunzipLimitError(what, maxBytes);
    }
    throw err;
  }
}

/** The error of a gzip that would inflate past `maxBytes`. */
export function gunzipLimitError(what: string, maxBytes: number) {
  return ledgerError(LedgerErrorCodes.malformedLedger, `${what} inflates to more than ${maxBytes} bytes`, { limit: maxBytes });
}
