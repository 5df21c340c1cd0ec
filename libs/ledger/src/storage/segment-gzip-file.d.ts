/** Raw bytes per gzip member, at most (segment-gzip-file.js). */
export declare const PIECE_BYTES: number;
/** A member's header length: the fixed bytes, XLEN and the "CC" subfield with the member's length. */
export declare const MEMBER_HEADER_BYTES: number;
/** A member's trailer length: CRC-32 and raw length. */
export declare const MEMBER_TRAILER_BYTES: number;
/** One gzip member holding `raw`, its own length in its header. */
export declare function gzipMember(raw: Buffer): Buffer;
/** Gzip `source` into `target` (mode 0644) in members, synced on disk; returns the bytes written. */
export declare function gzipFile(source: string, target: string, pieceBytes?: number): number;
