import { createHash } from 'node:crypto';
import { voiceError, VoiceErrorCodes } from '../errors.js';

export type DocumentStatus = 'active' | 'archived' | 'deleted';

// A type alias (not an interface) so it is assignable to the wire's open JSON records.
export type VoiceDocument = {
  document_id: string;
  document_path: string;
  filename: string;
  assistant_id: 'voice_secretary';
  title: string;
  status: DocumentStatus;
  folder_id?: string;
  storage_kind: 'workspace' | 'home';
  content: string;
  content_sha256: string;
  content_chars: number;
  revision_count: number;
  created_at: string;
  updated_at: string;
  created_by: string;
};

export interface LibraryFolder {
  folder_id: string;
  name: string;
}

/** `$CCCC_HOME/voice-secretary/<group_id>/documents/index.json`: the registry and the active selection. */
export interface DocumentIndex {
  schema: 1;
  documents: VoiceDocument[];
  active_document_id?: string;
  active_document_path?: string;
  folders: LibraryFolder[];
  root_order: string[];
}

export const emptyIndex = (): DocumentIndex => ({ schema: 1, documents: [], folders: [], root_order: [] });

export interface Stamp {
  readonly now: string;
  readonly newId: () => string;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const titleOf = (path: string) => (path.split('/').pop() ?? path).replace(/\.md$/i, '');

export function findDocument(index: DocumentIndex, path: string): VoiceDocument | undefined {
  return index.documents.find((d) => d.document_path === path);
}

/** A registered, non-deleted document, or `voice_document_not_found` / `voice_document_deleted`. */
export function liveDocument(index: DocumentIndex, path: string): VoiceDocument {
  const doc = findDocument(index, path);
  if (!doc) throw voiceError(VoiceErrorCodes.documentNotFound, `no Voice Secretary document at ${path}`, { document_path: path });
  if (doc.status === 'deleted') throw voiceError(VoiceErrorCodes.documentDeleted, `${path} was deleted`, { document_path: path });
  return doc;
}

function withContent(doc: VoiceDocument, content: string, now: string): VoiceDocument {
  if (doc.content_sha256 === sha256(content) && doc.content === content) return doc;
  return { ...doc, content, content_sha256: sha256(content), content_chars: [...content].length, revision_count: doc.revision_count + 1, updated_at: now };
}

function newDocument(path: string, content: string, storage: VoiceDocument['storage_kind'], by: string, stamp: Stamp, title?: string): VoiceDocument {
  return {
    document_id: `vdoc_${stamp.newId()}`,
    document_path: path,
    filename: path.split('/').pop() ?? path,
    assistant_id: 'voice_secretary',
    title: title?.trim() || titleOf(path),
    status: 'active',
    storage_kind: storage,
    content,
    content_sha256: sha256(content),
    content_chars: [...content].length,
    revision_count: 1,
    created_at: stamp.now,
    updated_at: stamp.now,
    created_by: by,
  };
}

function put(index: DocumentIndex, doc: VoiceDocument): DocumentIndex {
  const i = index.documents.findIndex((d) => d.document_path === doc.document_path);
  const documents = [...index.documents];
  if (i < 0) documents.push(doc);
  else documents[i] = doc;
  return { ...index, documents };
}

/**
 * Save: register or update a document with the content now in its file, and select it. A deleted
 * path is refused. `status` may archive / re-activate a saved (non-deleted) document.
 */
export function saveDocument(
  index: DocumentIndex,
  input: { path: string; content: string; title?: string; status?: 'active' | 'archived'; by: string; storage: VoiceDocument['storage_kind'] },
  stamp: Stamp,
): { index: DocumentIndex; document: VoiceDocument } {
  const old = findDocument(index, input.path);
  if (old?.status === 'deleted') throw voiceError(VoiceErrorCodes.documentDeleted, `${input.path} was deleted`, { document_path: input.path });
  let doc = old ? withContent(old, input.content, stamp.now) : newDocument(input.path, input.content, input.storage, input.by, stamp, input.title);
  if (old && input.title?.trim() && input.title.trim() !== old.title) doc = { ...doc, title: input.title.trim(), updated_at: stamp.now };
  if (input.status && input.status !== doc.status) doc = { ...doc, status: input.status, updated_at: stamp.now };
  let next = put(index, doc);
  if (doc.status === 'active') next = { ...next, active_document_id: doc.document_id, active_document_path: doc.document_path };
  else if (next.active_document_path === doc.document_path) next = clearActive(next);
  return { index: next, document: doc };
}

function clearActive(index: DocumentIndex): DocumentIndex {
  const { active_document_id: _a, active_document_path: _b, ...rest } = index;
  return rest as DocumentIndex;
}

/** Archive: hidden from the active list, file left in place; the active selection moves off it. */
export function archiveDocument(index: DocumentIndex, path: string, now: string): { index: DocumentIndex; document: VoiceDocument } {
  const doc = { ...liveDocument(index, path), status: 'archived' as const, updated_at: now };
  let next = put(index, doc);
  if (next.active_document_path === path) next = clearActive(next);
  return { index: next, document: doc };
}

/** Delete: the entry stays, marked deleted (never rediscovered, saved or restored), out of every order. */
export function markDeleted(index: DocumentIndex, path: string, now: string): { index: DocumentIndex; document: VoiceDocument } {
  const doc = { ...liveDocument(index, path), status: 'deleted' as const, updated_at: now };
  let next = put(index, doc);
  next = { ...next, root_order: next.root_order.filter((k) => k !== `document:${path}`) };
  if (next.active_document_path === path) next = clearActive(next);
  return { index: next, document: doc };
}

/**
 * Reconciliation: `observed` maps an indexed path to its file's content (absent: file missing or
 * unreadable, which never clears indexed content); `discovered` are .md files under the default
 * dir. Content, hash, chars and revision change only when the content changed; a path the index
 * knows in any status (archived, deleted) is never re-added as active.
 */
export function reconcileIndex(
  index: DocumentIndex,
  observed: ReadonlyMap<string, string>,
  discovered: ReadonlyArray<{ path: string; content: string }>,
  storage: VoiceDocument['storage_kind'],
  stamp: Stamp,
): { index: DocumentIndex; changed: VoiceDocument[] } {
  const changed: VoiceDocument[] = [];
  const documents = index.documents.map((d) => {
    const content = observed.get(d.document_path);
    if (d.status === 'deleted' || content === undefined) return d;
    const next = withContent(d, content, stamp.now);
    if (next !== d) changed.push(next);
    return next;
  });
  const known = new Set(documents.map((d) => d.document_path));
  for (const f of discovered) {
    if (known.has(f.path)) continue;
    const doc = newDocument(f.path, f.content, storage, 'voice-secretary', stamp);
    documents.push(doc);
    known.add(f.path);
    changed.push(doc);
  }
  return { index: { ...index, documents }, changed };
}
