/**
 * A request body kept as the chunks it arrived in: searched and sliced in place, so an upload
 * is never copied into one large buffer (large transient buffers are what left the Web's RSS at
 * its peak: glibc serves them from arenas once it has raised its mmap threshold).
 */
export class ChunkedBytes {
  /** Offset of each chunk's first byte. */
  private readonly starts: number[] = [];
  private readonly chunks: readonly Buffer[];
  readonly length: number;

  constructor(chunks: readonly Buffer[]) {
    this.chunks = chunks.filter((c) => c.length > 0);
    let at = 0;
    for (const c of this.chunks) {
      this.starts.push(at);
      at += c.length;
    }
    this.length = at;
  }

  /** Index of the chunk holding byte `pos` (pos < length). */
  private chunkAt(pos: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  byteAt(pos: number): number | undefined {
    if (pos < 0 || pos >= this.length) return undefined;
    const k = this.chunkAt(pos);
    return this.chunks[k]![pos - this.starts[k]!];
  }

  /** Views of `[start, end)`, no bytes copied. */
  views(start: number, end: number): Buffer[] {
    const out: Buffer[] = [];
    if (start >= end) return out;
    for (let k = this.chunkAt(start); k < this.chunks.length && this.starts[k]! < end; k++) {
      const c = this.chunks[k]!;
      const s = this.starts[k]!;
      out.push(c.subarray(Math.max(0, start - s), Math.min(c.length, end - s)));
    }
    return out;
  }

  /** `[start, end)` as one buffer: for the small parts (headers, text fields, search windows). */
  copy(start: number, end: number): Buffer {
    const views = this.views(start, end);
    return views.length === 1 ? views[0]! : Buffer.concat(views);
  }

  startsWith(needle: Buffer, at: number): boolean {
    return at + needle.length <= this.length && this.copy(at, at + needle.length).equals(needle);
  }

  /** First index of `needle` at or after `from`, matches across chunk boundaries included. */
  indexOf(needle: Buffer, from: number): number {
    if (from >= this.length || this.chunks.length === 0) return -1;
    for (let k = this.chunkAt(Math.max(0, from)); k < this.chunks.length; k++) {
      const c = this.chunks[k]!;
      const base = this.starts[k]!;
      const local = Math.max(0, from - base);
      // A match inside the chunk starts before any match that crosses into the next one.
      const inside = c.indexOf(needle, local);
      if (inside >= 0) return base + inside;
      const spanFrom = Math.max(local, c.length - needle.length + 1);
      if (spanFrom < c.length) {
        const window = this.copy(base + spanFrom, Math.min(this.length, base + c.length + needle.length - 1));
        const across = window.indexOf(needle);
        if (across >= 0) return base + spanFrom + across;
      }
    }
    return -1;
  }
}
