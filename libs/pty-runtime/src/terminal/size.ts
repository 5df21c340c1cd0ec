// Terminal size rules of §8.11: term_resize bounds, and the narrower snapshot hints of term_attach.

export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;

export type SizeCheck = { ok: true; cols: number; rows: number } | { ok: false; code: 'invalid_size'; message: string };

function check(cols: unknown, rows: unknown, maxCols: number, maxRows: number): SizeCheck {
  const valid = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  if (!valid(cols, 10, maxCols) || !valid(rows, 2, maxRows)) {
    return { ok: false, code: 'invalid_size', message: `cols must be 10..${maxCols} and rows 2..${maxRows} (got ${String(cols)}×${String(rows)})` };
  }
  return { ok: true, cols: cols as number, rows: rows as number };
}

/** term_resize: cols 10..65535, rows 2..65535; missing values are invalid too. */
export function validateTermSize(cols: unknown, rows: unknown): SizeCheck {
  return check(cols, rows, 65535, 65535);
}

/** term_attach snapshot hints: cols 10..4096, rows 2..4096. */
export function validateSnapshotHint(cols: unknown, rows: unknown): SizeCheck {
  return check(cols, rows, 4096, 4096);
}
