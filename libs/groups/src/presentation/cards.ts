import { extname, posix } from 'node:path';
import {
  PRESENTATION_SLOT_IDS,
  type PresentationCard,
  type PresentationCardType,
  type PresentationContent,
  type PresentationPublishArgs,
  type PresentationSlotId,
  type PresentationSnapshot,
} from '@cccc/ipc-protocol';
import { groupError } from '../errors.js';

// §8.13 the pure core of the presentation board: which slot, which card type, which source,
// and the next snapshot. The daemon resolves files and blobs, then calls these.

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.svg', '.bmp', '.avif']);
const MIME: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
  '.avif': 'image/avif',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
};

export function mimeOf(name: string): string {
  return MIME[extname(name).toLowerCase()] ?? '';
}

const invalidCard = (message: string, details: Record<string, unknown> = {}) => groupError('invalid_card', message, details);

export function emptySnapshot(now = ''): PresentationSnapshot {
  return { v: 1, updated_at: now, highlight_slot_id: '', slots: PRESENTATION_SLOT_IDS.map((slot_id, i) => ({ slot_id, index: (i + 1) as 1 | 2 | 3 | 4 })) };
}

/** `auto`: the first empty slot, else the one whose card was published longest ago. */
export function targetSlot(snapshot: PresentationSnapshot, requested: PresentationPublishArgs['slot']): PresentationSlotId {
  if (requested && requested !== 'auto') return requested;
  const empty = snapshot.slots.find((s) => !s.card);
  if (empty) return empty.slot_id;
  return [...snapshot.slots].sort((a, b) => (a.card!.published_at < b.card!.published_at ? -1 : a.card!.published_at > b.card!.published_at ? 1 : 0))[0]!.slot_id;
}

function urlPathExtension(url: string): string {
  try {
    return extname(new URL(url).pathname).toLowerCase();
  } catch {
    return extname(url).toLowerCase();
  }
}

/** The explicit card type, else one inferred from the table, the path or URL suffix, the content. */
export function inferCardType(args: PresentationPublishArgs): PresentationCardType {
  if (args.card_type) return args.card_type;
  if (args.table !== undefined) return 'table';
  const path = args.path?.trim() || '';
  const url = args.url?.trim() || '';
  const ext = path ? extname(path).toLowerCase() : url ? urlPathExtension(url) : '';
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (IMAGE_EXTENSIONS.has(ext)) return 'image';
  if (ext === '.pdf') return 'pdf';
  if (ext === '.html' || ext === '.htm') return 'web_preview';
  if (args.content?.trim()) return 'markdown';
  if (path || url || args.blob_rel_path?.trim()) return 'file';
  throw invalidCard('nothing to publish: give content, table, path, url or blob_rel_path', {});
}

/** What the daemon must resolve for this card (the reference's precedence per card type). */
export type CardSourcePlan =
  | { kind: 'markdown'; markdown: string }
  | { kind: 'table'; table: NonNullable<PresentationPublishArgs['table']> }
  | { kind: 'workspace'; path: string }
  | { kind: 'inline_html'; html: string }
  | { kind: 'blob'; blob_rel_path: string }
  | { kind: 'url'; url: string };

export function planCardSource(cardType: PresentationCardType, args: PresentationPublishArgs): CardSourcePlan {
  const path = args.path?.trim() || '';
  const url = args.url?.trim() || '';
  const blob = args.blob_rel_path?.trim() || '';
  const content = args.content ?? '';
  switch (cardType) {
    case 'markdown':
      if (path) return { kind: 'workspace', path };
      if (content) return { kind: 'markdown', markdown: content };
      throw invalidCard('a markdown card needs content or path', { card_type: cardType });
    case 'table':
      if (args.table !== undefined) return { kind: 'table', table: args.table };
      throw invalidCard('a table card needs table', { card_type: cardType });
    case 'web_preview':
      if (path) return { kind: 'workspace', path };
      if (content && !url && !blob) return { kind: 'inline_html', html: content };
      if (blob) return { kind: 'blob', blob_rel_path: blob };
      if (url) return { kind: 'url', url: checkRemoteUrl(url) };
      throw invalidCard('a web_preview card needs path, url, blob_rel_path or inline content', { card_type: cardType });
    default:
      if (path) return { kind: 'workspace', path };
      if (blob) return { kind: 'blob', blob_rel_path: blob };
      if (url) return { kind: 'url', url: checkRemoteUrl(url) };
      throw invalidCard(`a ${cardType} card needs path, url or blob_rel_path`, { card_type: cardType });
  }
}

/** A stored remote URL: absolute http(s) with a host (no javascript:, file:, data:). */
export function checkRemoteUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidCard('url must be an absolute HTTP(S) URL', { field: 'url' });
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
    throw invalidCard('url must be an absolute HTTP(S) URL with a host', { field: 'url' });
  }
  return url;
}

const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const keys: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (key.trim() && !keys.includes(key)) keys.push(key);
  return keys;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{columns, rows}` (rows as arrays or objects), `{rows: [objects]}`, or a list of row objects. */
export function normalizeTable(raw: NonNullable<PresentationPublishArgs['table']>): { columns: string[]; rows: string[][] } {
  const objectRows = (rows: unknown[]) => {
    const list = rows as Record<string, unknown>[];
    const columns = columnsOf(list);
    return { columns, rows: list.map((row) => columns.map((c) => cell(row[c]))) };
  };
  if (Array.isArray(raw)) {
    if (raw.length > 0) return objectRows(raw);
  } else {
    const { columns, rows } = raw;
    if (Array.isArray(columns) && Array.isArray(rows)) {
      const cols = columns.map((c) => cell(c).trim());
      if (rows.every((r) => Array.isArray(r) || isRecord(r))) {
        return { columns: cols, rows: rows.map((r) => (Array.isArray(r) ? r.map(cell) : cols.map((c) => cell((r as Record<string, unknown>)[c])))) };
      }
    } else if (Array.isArray(rows) && rows.length > 0 && rows.every(isRecord)) {
      return objectRows(rows);
    }
  }
  throw invalidCard('table must be {columns, rows} or a non-empty list of row objects', { field: 'table' });
}

/** The card's title: given, else the file or URL name, else the card type in words. */
export function deriveTitle(args: PresentationPublishArgs, cardType: PresentationCardType): string {
  if (args.title?.trim()) return args.title.trim();
  const path = args.path?.trim();
  if (path) return posix.basename(path.replace(/\\/g, '/')) || cardType;
  const url = args.url?.trim();
  if (url) {
    try {
      const parsed = new URL(url);
      return posix.basename(parsed.pathname) || parsed.host || cardType;
    } catch {
      /* fall through */
    }
  }
  return cardType.replace('_', ' ');
}

/** A source the daemon has resolved (workspace file checked, blob found or stored). */
export type ResolvedCardSource =
  | { kind: 'markdown'; markdown: string }
  | { kind: 'table'; table: { columns: string[]; rows: string[][] } }
  | { kind: 'workspace'; rel_path: string; file_name: string }
  | { kind: 'blob'; blob_rel_path: string; file_name: string; inline_html?: boolean }
  | { kind: 'url'; url: string };

export interface CardInput {
  readonly slot_id: PresentationSlotId;
  readonly card_type: PresentationCardType;
  readonly by: string;
  readonly now: string;
  readonly args: PresentationPublishArgs;
  readonly source: ResolvedCardSource;
}

/** The stored card (source label/ref default to where its content came from). */
export function buildCard(input: CardInput): PresentationCard {
  const { args, source, card_type } = input;
  const title = deriveTitle(args, card_type);
  let label = args.source_label?.trim() ?? '';
  let ref = args.source_ref?.trim() ?? '';
  let content: PresentationContent;
  switch (source.kind) {
    case 'markdown':
      content = { mode: 'inline', markdown: source.markdown };
      break;
    case 'table':
      content = { mode: 'inline', table: source.table };
      break;
    case 'workspace':
      label ||= source.file_name;
      ref ||= source.rel_path;
      content = { mode: 'workspace_link', workspace_rel_path: source.rel_path, file_name: source.file_name };
      break;
    case 'blob':
      label ||= source.file_name;
      ref ||= source.inline_html ? 'inline-html' : source.blob_rel_path;
      content = { mode: 'reference', blob_rel_path: source.blob_rel_path, file_name: source.file_name };
      break;
    case 'url': {
      const name = (() => {
        try {
          return posix.basename(new URL(source.url).pathname);
        } catch {
          return '';
        }
      })();
      label ||= name || (card_type === 'web_preview' ? '' : title);
      ref ||= source.url;
      content = { mode: 'reference', url: source.url, ...(name || card_type !== 'web_preview' ? { file_name: name || title } : {}) };
      break;
    }
  }
  const mime = source.kind === 'workspace' ? mimeOf(source.file_name) || (card_type === 'markdown' ? 'text/markdown' : '') : source.kind === 'blob' ? mimeOf(source.file_name) : source.kind === 'url' ? mimeOf(content.file_name ?? '') : '';
  if (mime) content.mime_type = mime;
  return { slot_id: input.slot_id, title, card_type, published_by: input.by, published_at: input.now, source_label: label, source_ref: ref, summary: args.summary?.trim() ?? '', content };
}

/** The snapshot after publishing `card` (its slot becomes the highlight). */
export function withPublished(snapshot: PresentationSnapshot, card: PresentationCard, now: string): PresentationSnapshot {
  return {
    v: 1,
    updated_at: now,
    highlight_slot_id: card.slot_id,
    slots: snapshot.slots.map((s) => (s.slot_id === card.slot_id ? { slot_id: s.slot_id, index: s.index, card } : s)),
  };
}

/** The snapshot after clearing `slots` (the highlight goes if its slot was cleared), and which were occupied. */
export function withCleared(snapshot: PresentationSnapshot, slots: readonly PresentationSlotId[], now: string): { snapshot: PresentationSnapshot; cleared: PresentationSlotId[] } {
  const cleared = snapshot.slots.filter((s) => slots.includes(s.slot_id) && s.card).map((s) => s.slot_id);
  return {
    cleared,
    snapshot: {
      v: 1,
      updated_at: now,
      highlight_slot_id: cleared.includes(snapshot.highlight_slot_id as PresentationSlotId) ? '' : snapshot.highlight_slot_id,
      slots: snapshot.slots.map((s) => (cleared.includes(s.slot_id) ? { slot_id: s.slot_id, index: s.index } : s)),
    },
  };
}
