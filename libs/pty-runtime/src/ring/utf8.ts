// UTF-8 boundary rules for byte-cursor pages: a page is sent as JSON text, so it must never end
// (or, after clamping to the retained window, begin) inside a code point.

export function isContinuationByte(b: number): boolean {
  return (b & 0xc0) === 0x80;
}

/** Length of the sequence a lead byte announces; invalid leads count as 1 so they never stall. */
export function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if ((lead & 0xe0) === 0xc0) return 2;
  if ((lead & 0xf0) === 0xe0) return 3;
  if ((lead & 0xf8) === 0xf0) return 4;
  return 1;
}

/**
 * Where a page that wants to stop at `stop` should stop. `byteAt(c)` reads the stream,
 * `floor` is the page start and `ceiling` the last readable cursor (exclusive).
 * If `stop` splits a code point, finish it when its bytes are there (up to 3 bytes beyond the
 * limit), otherwise stop before it so the incomplete suffix is left for a later page.
 */
export function completeBoundary(byteAt: (cursor: number) => number, floor: number, stop: number, ceiling: number): number {
  let p = stop - 1;
  let seen = 0;
  while (p >= floor && seen < 3 && isContinuationByte(byteAt(p))) {
    p--;
    seen++;
  }
  if (p < floor) return stop;
  const lead = byteAt(p);
  if (isContinuationByte(lead)) return stop; // a run of stray continuation bytes: nothing to finish
  const len = sequenceLength(lead);
  const finish = p + len;
  if (finish <= stop) return stop;
  // Only a genuine sequence is worth finishing: check the bytes after `stop` continue it.
  if (finish <= ceiling) {
    for (let c = stop; c < finish; c++) if (!isContinuationByte(byteAt(c))) return stop;
    return finish;
  }
  for (let c = stop; c < ceiling; c++) if (!isContinuationByte(byteAt(c))) return stop;
  return p;
}

/** Skip continuation bytes at a start that was clamped into the middle of a code point. */
export function skipContinuation(byteAt: (cursor: number) => number, start: number, ceiling: number): number {
  let c = start;
  while (c < ceiling && c - start < 3 && isContinuationByte(byteAt(c))) c++;
  return c;
}
