import { createHash } from 'node:crypto';

// The entry block agents and daily flushes append (the reference's on-disk form, so both
// implementations read each other's files):
//   ## mem_<12 hex> [<kind>] <created_at>
//   <!-- cccc.memory.meta {json without the summary, with content_hash} -->
//   (blank)
//   <summary>

const META_PREFIX = '<!-- cccc.memory.meta ';
const META_SUFFIX = ' -->';

export interface EntryInput {
  readonly entryId: string;
  readonly kind: string;
  readonly summary: string;
  readonly date: string;
  readonly groupLabel: string;
  readonly actorId: string;
  readonly sourceRefs: readonly string[];
  readonly tags: readonly string[];
  readonly supersedes: readonly string[];
  readonly createdAt: string;
  readonly idempotencyKey?: string;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function entryMeta(input: EntryInput): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    entry_id: input.entryId,
    date: input.date,
    group_label: input.groupLabel,
    kind: input.kind,
    source_refs: input.sourceRefs,
    tags: input.tags,
    supersedes: input.supersedes,
    actor_id: input.actorId,
    created_at: input.createdAt,
    content_hash: sha256(input.summary.trim()),
  };
  if (input.idempotencyKey) meta['idempotency_key'] = input.idempotencyKey;
  return meta;
}

export function entryBlock(input: EntryInput): string {
  return `## ${input.entryId} [${input.kind}] ${input.createdAt}\n${META_PREFIX}${JSON.stringify(entryMeta(input))}${META_SUFFIX}\n\n${input.summary.trim()}\n\n`;
}

/** The metadata object of a meta comment line, or undefined. */
export function parseMetaLine(line: string): Record<string, unknown> | undefined {
  const t = line.trim();
  if (!t.startsWith(META_PREFIX) || !t.endsWith(META_SUFFIX)) return undefined;
  try {
    const v: unknown = JSON.parse(t.slice(META_PREFIX.length, t.length - META_SUFFIX.length));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The first entry metadata in a piece of text (a chunk), or `{}`. */
export function metadataOf(text: string): Record<string, unknown> {
  for (const line of text.split('\n')) {
    const meta = parseMetaLine(line);
    if (meta) return meta;
  }
  return {};
}

/** A chunk's text as it is searched and shown: without its meta comment lines (kept as metadata). */
export function searchableText(text: string): string {
  return text
    .split('\n')
    .filter((line) => parseMetaLine(line) === undefined)
    .join('\n');
}

/** Which dedup rule an existing file already satisfies for a new entry, if any. */
export function existingDuplicate(existing: string, idempotencyKey: string, contentHash: string): 'persistence_idempotency_key' | 'persistence_content_hash' | undefined {
  let hashSeen = false;
  for (const line of existing.split('\n')) {
    const meta = parseMetaLine(line);
    if (!meta) continue;
    if (idempotencyKey && meta['idempotency_key'] === idempotencyKey) return 'persistence_idempotency_key';
    if (meta['content_hash'] === contentHash) hashSeen = true;
  }
  return hashSeen ? 'persistence_content_hash' : undefined;
}
