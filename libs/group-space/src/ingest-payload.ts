import { createHash } from 'node:crypto';
import { spaceError } from './errors.js';
import type { SourceInput } from './provider.js';
import { LOCAL_FILE_POLICY, readSpaceFile, resolveSpaceFile, walkSpaceFolder } from './space-files.js';

const ALIASES: Record<string, string> = { pasted_text: 'text', markdown: 'text' };
const TYPES = new Set(['text', 'file', 'space_folder']);

/** A stable idempotency key for a request that names none: same lane, kind and payload → same job. */
export function derivedKey(lane: string, kind: string, payload: Record<string, unknown>): string {
  const canon = JSON.stringify(payload, Object.keys(payload).sort());
  return `auto:${createHash('sha256').update(`${lane}\0${kind}\0${canon}`).digest('hex').slice(0, 32)}`;
}

/** Check a resource_ingest payload before any job is written (no file is read yet). */
export function validatePayload(payload: Record<string, unknown>, spaceRoot: string | undefined): string {
  const raw = typeof payload.source_type === 'string' ? payload.source_type : 'text';
  const type = ALIASES[raw] ?? raw;
  if (!TYPES.has(type)) throw spaceError('capability_unavailable', `source_type ${raw} is not available here (text, file, space_folder)`, { source_type: raw });
  if (type === 'text') {
    const content = payload.content ?? payload.text;
    if (typeof content !== 'string' || content.trim() === '') throw spaceError('invalid_request', 'payload.content must be non-empty text', { field: 'payload.content' });
    if (Buffer.byteLength(content, 'utf8') > LOCAL_FILE_POLICY.max_file_size_bytes) {
      throw spaceError('space_source_too_large', `payload.content is larger than ${LOCAL_FILE_POLICY.max_file_size_bytes} bytes`, { field: 'payload.content' });
    }
    if (payload.title !== undefined && typeof payload.title !== 'string') throw spaceError('invalid_request', 'payload.title must be a string', { field: 'payload.title' });
  } else {
    if (spaceRoot === undefined) throw spaceError('capability_unavailable', 'the group has no attached scope, so no repo space/ folder', { field: 'payload.source_type' });
    if (type === 'file') {
      const { abs, rel } = resolveSpaceFile(spaceRoot, payload.path as string);
      readSpaceFile(abs, rel);
    }
  }
  return type;
}

/** The sources a payload stands for, each with its token suffix (files: their relative path). */
export function payloadSources(type: string, payload: Record<string, unknown>, spaceRoot: string | undefined): Array<{ input: SourceInput; suffix: string }> {
  if (type === 'text') {
    const content = (payload.content ?? payload.text) as string;
    const title = typeof payload.title === 'string' && payload.title.trim() !== '' ? payload.title : content.trim().split('\n')[0]!.slice(0, 80);
    return [{ input: { title, content, source_type: 'text', origin: '' }, suffix: '' }];
  }
  const root = spaceRoot!;
  const files = type === 'file' ? [resolveSpaceFile(root, payload.path as string)] : walkSpaceFolder(root);
  return files.map(({ abs, rel }) => ({
    input: { title: typeof payload.title === 'string' && type === 'file' ? payload.title : rel, content: readSpaceFile(abs, rel), source_type: 'file', origin: abs },
    suffix: type === 'file' ? '' : `#${rel}`,
  }));
}
