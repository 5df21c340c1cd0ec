/** Limits of term_attach streams. Mutable so tests can shorten them for an in-process daemon. */
export interface AttachTuning {
  /** Close an attachment whose input batch is not written within this time (§4.4: 30 s). */
  inputStallMs: number;
  /** Bytes an attachment may have queued on its socket before it stops reading the ring. */
  maxPendingBytes: number;
  /** Input bytes an attachment may queue behind a pending batch; beyond it the attachment is closed. */
  maxQueuedInputBytes: number;
  /** Largest ring slice written at once while an attachment catches up. */
  chunkBytes: number;
  /** Output arriving within this window after a write is sent in one write. */
  coalesceMs: number;
  /** An attachment whose stream never starts (the client left during the handshake) is dropped. */
  startTimeoutMs: number;
}

const envMs = (name: string, fallback: number): number => {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export const attachTuning: AttachTuning = {
  inputStallMs: envMs('CCCC_TERM_INPUT_STALL_MS', 30_000),
  maxPendingBytes: 1024 * 1024,
  maxQueuedInputBytes: 1024 * 1024,
  chunkBytes: 256 * 1024,
  coalesceMs: 4,
  startTimeoutMs: 10_000,
};

/** Attachments this daemon closed, by reason (backpressure is counted, never silent). */
export const attachCounters = { fellBehind: 0, inputStalled: 0, inputFailed: 0, inputOverflow: 0 };
