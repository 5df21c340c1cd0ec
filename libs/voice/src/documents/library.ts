import { voiceError, VoiceErrorCodes } from '../errors.js';
import { findDocument, type DocumentIndex, type LibraryFolder, type VoiceDocument } from './document-index.js';

export interface LibraryView {
  folders: LibraryFolder[];
  root_order: string[];
  documents: VoiceDocument[];
}

/** assistant_voice_document_library: every non-deleted document (archived included), folders, saved order. */
export function libraryView(index: DocumentIndex): LibraryView {
  return { folders: index.folders, root_order: index.root_order, documents: index.documents.filter((d) => d.status !== 'deleted') };
}

export type LibraryAction =
  | { action: 'create_folder'; name?: string }
  | { action: 'rename_folder'; folder_id?: string; name?: string }
  | { action: 'remove_folder'; folder_id?: string }
  | { action: 'reorder_root'; root_order?: string[] }
  | { action: 'rename'; document_path?: string; name?: string }
  | { action: 'move'; document_path?: string; folder_id?: string }
  | { action: 'restore'; document_path?: string };

const bad = (field: string, message: string) => voiceError(VoiceErrorCodes.invalidRequest, message, { field });

function folderName(name: string | undefined, index: DocumentIndex, except?: string): string {
  const n = (name ?? '').trim();
  if (n.length < 1 || n.length > 80) throw bad('name', 'name must be 1-80 characters');
  if (index.folders.some((f) => f.folder_id !== except && f.name === n)) throw voiceError(VoiceErrorCodes.folderExists, `a folder named ${n} exists`, { name: n });
  return n;
}

function folder(index: DocumentIndex, id: string | undefined): LibraryFolder {
  const f = index.folders.find((x) => x.folder_id === id);
  if (!f) throw voiceError(VoiceErrorCodes.folderNotFound, `no folder ${id ?? ''}`, { folder_id: id ?? '' });
  return f;
}

function registered(index: DocumentIndex, path: string | undefined): VoiceDocument {
  if (!path) throw bad('document_path', 'document_path is required');
  const doc = findDocument(index, path);
  if (!doc) throw voiceError(VoiceErrorCodes.documentNotFound, `no Voice Secretary document at ${path}`, { document_path: path });
  if (doc.status === 'deleted') throw voiceError(VoiceErrorCodes.documentDeleted, `${path} was deleted`, { document_path: path });
  return doc;
}

const replaceDoc = (index: DocumentIndex, doc: VoiceDocument): DocumentIndex => ({ ...index, documents: index.documents.map((d) => (d.document_path === doc.document_path ? doc : d)) });

/** One library metadata change (no file moves, no ledger event). Throws the request's code, changing nothing. */
export function applyLibraryAction(index: DocumentIndex, req: LibraryAction, stamp: { now: string; newId: () => string }): DocumentIndex {
  switch (req.action) {
    case 'create_folder':
      return { ...index, folders: [...index.folders, { folder_id: `vfold_${stamp.newId()}`, name: folderName(req.name, index) }] };
    case 'rename_folder': {
      const f = folder(index, req.folder_id);
      const name = folderName(req.name, index, f.folder_id);
      return { ...index, folders: index.folders.map((x) => (x.folder_id === f.folder_id ? { ...x, name } : x)) };
    }
    case 'remove_folder': {
      const f = folder(index, req.folder_id);
      return {
        ...index,
        folders: index.folders.filter((x) => x.folder_id !== f.folder_id),
        root_order: index.root_order.filter((k) => k !== `folder:${f.folder_id}`),
        documents: index.documents.map((d) => {
          if (d.folder_id !== f.folder_id) return d;
          const { folder_id: _f, ...rest } = d;
          return rest as VoiceDocument;
        }),
      };
    }
    case 'reorder_root': {
      if (!Array.isArray(req.root_order)) throw bad('root_order', 'root_order must be an array of strings');
      const folders = new Set(index.folders.map((f) => `folder:${f.folder_id}`));
      const docs = new Set(index.documents.filter((d) => d.status !== 'deleted').map((d) => `document:${d.document_path}`));
      const order = [...new Set(req.root_order)].filter((k) => typeof k === 'string' && (folders.has(k) || docs.has(k)));
      return { ...index, root_order: order };
    }
    case 'rename': {
      const doc = registered(index, req.document_path);
      const title = (req.name ?? '').trim();
      if (title.length < 1 || title.length > 80) throw bad('name', 'name must be 1-80 characters');
      return replaceDoc(index, { ...doc, title, updated_at: stamp.now });
    }
    case 'move': {
      const doc = registered(index, req.document_path);
      if (!req.folder_id) {
        const { folder_id: _f, ...rest } = doc;
        return replaceDoc(index, { ...(rest as VoiceDocument), updated_at: stamp.now });
      }
      return replaceDoc(index, { ...doc, folder_id: folder(index, req.folder_id).folder_id, updated_at: stamp.now });
    }
    case 'restore': {
      const doc = registered(index, req.document_path);
      if (doc.status !== 'archived') throw bad('document_path', 'only an archived document can be restored');
      return replaceDoc(index, { ...doc, status: 'active', updated_at: stamp.now });
    }
  }
}
