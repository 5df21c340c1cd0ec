/**
 * Finds fixed byte sequences in a chunked stream, including ones split across chunks, by
 * carrying forward the stream's longest suffix that could still start a pattern. Matches are
 * reported in stream order.
 *
 * Runs on every PTY read, so the common chunk (no pattern byte at all, nothing carried) costs one
 * `indexOf` per distinct first byte, and no chunk is ever copied: only the carried bytes plus the
 * first few bytes of the next chunk are joined to look across the boundary.
 */
export class SequenceScanner<K extends string> {
  private readonly patterns: Array<{ key: K; bytes: Buffer }>;
  private readonly keep: number;
  private readonly firstBytes: number[];
  private carry: Buffer = Buffer.alloc(0);

  constructor(patterns: Record<K, string>) {
    this.patterns = (Object.keys(patterns) as K[]).map((key) => ({ key, bytes: Buffer.from(patterns[key]) })).filter((p) => p.bytes.byteLength > 0);
    this.keep = Math.max(0, ...this.patterns.map((p) => p.bytes.byteLength - 1));
    this.firstBytes = [...new Set(this.patterns.map((p) => p.bytes[0]!))];
  }

  /** Matches that end inside `chunk`, in the order they occur. */
  scan(chunk: Uint8Array): K[] {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const carried = this.carry.byteLength;
    // Cheap exit for the common case: nothing carried and no byte that can start a pattern.
    if (carried === 0 && !this.firstBytes.some((b) => buf.indexOf(b) >= 0)) return [];
    const found: Array<{ key: K; at: number }> = [];
    if (carried > 0) {
      // Matches that start in the carried bytes and end in this chunk (positions < carried).
      const head = Buffer.concat([this.carry, buf.subarray(0, this.keep)]);
      for (const { key, bytes } of this.patterns) {
        let from = Math.max(0, carried - bytes.byteLength + 1);
        for (;;) {
          const at = head.indexOf(bytes, from);
          if (at < 0 || at >= carried) break;
          found.push({ key, at });
          from = at + 1;
        }
      }
    }
    for (const { key, bytes } of this.patterns) {
      let from = 0;
      for (;;) {
        const at = buf.indexOf(bytes, from);
        if (at < 0) break;
        found.push({ key, at: carried + at });
        from = at + 1;
      }
    }
    this.carry = this.nextCarry(buf);
    if (found.length > 1) found.sort((a, b) => a.at - b.at);
    return found.map((f) => f.key);
  }

  /** The longest suffix of (carry + chunk), at most `keep` bytes, that is a proper prefix of a pattern. */
  private nextCarry(buf: Buffer): Buffer {
    if (this.keep === 0) return Buffer.alloc(0);
    const tail = buf.byteLength >= this.keep ? buf.subarray(buf.byteLength - this.keep) : Buffer.concat([this.carry, buf]).subarray(-this.keep);
    for (let i = 0; i < tail.byteLength; i++) {
      if (!this.firstBytes.includes(tail[i]!)) continue;
      const suffix = tail.subarray(i);
      if (this.patterns.some((p) => p.bytes.byteLength > suffix.byteLength && p.bytes.subarray(0, suffix.byteLength).equals(suffix))) {
        return Buffer.from(suffix);
      }
    }
    return Buffer.alloc(0);
  }
}
