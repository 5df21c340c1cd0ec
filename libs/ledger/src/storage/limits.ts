/** Reference size rules (REFERENCE_NOTES §1.1). */
export const CHAT_TEXT_SPILL_BYTES = 32_000;
export const MAX_RECORD_BYTES = 256_000;
/** client_id duplicates are answered for at least this long (notes: "~5 minutes"). */
export const CLIENT_ID_WINDOW_MS = 10 * 60_000;
/** Upper bound of appends per group commit, to bound one write's size and latency. */
export const MAX_BATCH = 512;
/**
 * The most a gzipped segment may inflate to when it is read whole (a gzip that is not ours, or a
 * recovery check). A segment rotates at 5 MB plus one record; the margin covers a larger
 * `maxActiveBytes` and the reference's files. A gzip claiming more is a decompression bomb or
 * not a segment, and is refused instead of filling the daemon's memory.
 */
export const MAX_INFLATED_SEGMENT_BYTES = 64 * 1024 * 1024;
