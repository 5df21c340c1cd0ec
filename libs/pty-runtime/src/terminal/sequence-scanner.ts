/**
 * Finds fixed byte sequences in a chunked stream, including ones split across chunks, by
 * carrying the last (longest pattern − 1) bytes forward. Matches are reported in stream order.
 */
export class SequenceScanner<K extends string> {
  private readonly patterns: Array<{ key: K; bytes: Buffer }>;
  private readonly keep: number;
  private carry: Buffer = Buffer.alloc(0);

  constructor(patterns: Record<K, string>) {
    this.patterns = (Object.keys(patterns) as K[]).map((key) => ({ key, bytes: Buffer.from(patterns[key]) }));
    this.keep = Math.max(0, ...this.patterns.map((p) => p.bytes.byteLength - 1));
  }

  /** Matches that end inside `chunk`, in the order they occur. */
  scan(chunk: Uint8Array): K[] {
    // Cheap exit for the common case: no ESC anywhere and nothing carried.
    if (this.carry.byteLength === 0 && chunk.indexOf(0x1b) < 0) return [];
    const buf = this.carry.byteLength ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const carried = this.carry.byteLength;
    const found: Array<{ key: K; at: number }> = [];
    for (const { key, bytes } of this.patterns) {
      // Start where a match could still end in the new bytes; earlier ones were reported before.
      let from = Math.max(0, carried - bytes.byteLength + 1);
      for (;;) {
        const at = buf.indexOf(bytes, from);
        if (at < 0) break;
        found.push({ key, at });
        from = at + 1;
      }
    }
    const tail = Math.min(this.keep, buf.byteLength);
    this.carry = Buffer.from(buf.subarray(buf.byteLength - tail));
    return found.sort((a, b) => a.at - b.at).map((f) => f.key);
  }
}
