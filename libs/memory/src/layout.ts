import { join } from 'node:path';

/** Where a group's memory lives: `<group>/state/memory/{MEMORY.md,daily/<date>__<label>.md}`. */
export interface MemoryLayout {
  readonly groupLabel: string;
  readonly root: string;
  readonly memoryFile: string;
  readonly dailyDir: string;
  /** The daily file of `date` (today when the caller gave none). */
  readonly dailyFile: string;
  readonly indexFile: string;
}

/** A group title as a file-name part: letters, digits, `.`, `_`, `-`; runs of anything else become one `_`. */
export function groupLabelOf(title: string): string {
  const label = title
    .trim()
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/_+/g, '_')
    .replace(/^[._-]+|[._-]+$/g, '');
  return label || 'group';
}

export function memoryLayout(groupDir: string, title: string, date: string): MemoryLayout {
  const groupLabel = groupLabelOf(title);
  const root = join(groupDir, 'state', 'memory');
  const dailyDir = join(root, 'daily');
  return {
    groupLabel,
    root,
    memoryFile: join(root, 'MEMORY.md'),
    dailyDir,
    dailyFile: join(dailyDir, `${date}__${groupLabel}.md`),
    indexFile: join(root, '.index', 'fts.sqlite'),
  };
}

/** A new file's first lines: a small front matter (label, kind, date) and a title. */
export function memoryHeader(label: string, createdAt: string): string {
  return `---\ngroup_label: ${label}\nkind: memory\ncreated_at: ${createdAt}\n---\n\n# MEMORY (${label})\n\n`;
}

export function dailyHeader(label: string, date: string, createdAt: string): string {
  return `---\ngroup_label: ${label}\nkind: daily\ndate: ${date}\ncreated_at: ${createdAt}\n---\n\n# Daily Memory (${label}) - ${date}\n\n`;
}

/** `YYYY-MM-DD` that is a real calendar day. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}
