import { effectiveRole, principalOf, type GroupDoc } from '@cccc/groups';
import { existsSync } from 'node:fs';
import { rm, rename } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import {
  archiveDocument,
  applyLibraryAction,
  assertVoiceWriter,
  discoverMarkdown,
  DocumentIndexStore,
  findDocument,
  libraryView,
  markDeleted,
  moveAside,
  newStamp,
  readDocumentFile,
  reconcileIndex,
  safeDocumentPath,
  saveDocument,
  VOICE_ACTOR_ID,
  VOICE_ASSISTANT_ID,
  voiceDocumentsDir,
  voiceError,
  VoiceErrorCodes,
  voiceSettingsOf,
  writeDocumentFile,
  type DocumentIndex,
  type DocumentRoot,
  type LibraryAction,
  type RecordingLeaseStore,
  type VoiceDocument,
} from '@cccc/voice';
import type { LedgerEvent } from '@cccc/ledger';
import type { StoreDeps } from '../kernel/store-deps.js';

export type VoiceDocumentsDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'> & {
  readonly voiceLease: RecordingLeaseStore;
};

/** The group's document root: its active workspace scope, else CCCC_HOME's voice-secretary documents dir. */
export function documentRoot(home: string, group: GroupDoc): DocumentRoot {
  const scope = group.scopes.find((s) => s.scope_key === group.active_scope_key) ?? group.scopes[0];
  if (scope?.url && isAbsolute(scope.url) && existsSync(scope.url)) return { root: scope.url, storage: 'workspace' };
  return { root: voiceDocumentsDir(home, group.group_id), storage: 'home' };
}

const hasVoiceActor = (group: GroupDoc) => group.actors.some((a) => a.id === VOICE_ACTOR_ID && a.internal_kind === VOICE_ASSISTANT_ID);
const assertWriter = (group: GroupDoc, by: string | undefined) => assertVoiceWriter(by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
const brief = (d: VoiceDocument) => ({ document_id: d.document_id, document_path: d.document_path, title: d.title, status: d.status, revision_count: d.revision_count });

/** The Voice Secretary working documents of each group: repository Markdown is the content, documents/index.json the registry. */
export class VoiceDocuments {
  constructor(private readonly deps: VoiceDocumentsDeps) {}

  private store(gid: string): DocumentIndexStore {
    return new DocumentIndexStore(this.deps.layout.home, gid);
  }

  private append(gid: string, by: string, data: { action: string } & Record<string, unknown>): Promise<LedgerEvent> {
    return this.deps.ledgers.append(gid, { kind: 'assistant.voice.document', by, data: { assistant_id: VOICE_ASSISTANT_ID, ...data } }).then((r) => r.event);
  }

  /**
   * Reconcile repository edits into the registry: changed content of indexed files, and new .md
   * files under document_default_dir. The auxiliary `reconciled` event is appended after the index commits.
   */
  async reconcile(gid: string): Promise<DocumentIndex> {
    const group = this.deps.groups.get(gid);
    const { root, storage } = documentRoot(this.deps.layout.home, group);
    const dir = voiceSettingsOf(group).config.document_default_dir;
    const { index, changed } = await this.store(gid).update(async (current) => {
      const observed = new Map<string, string>();
      for (const d of current.documents) {
        if (d.status === 'deleted') continue;
        const text = await readDocumentFile(root, d.document_path);
        if (text !== undefined) observed.set(d.document_path, text);
      }
      const discovered: Array<{ path: string; content: string }> = [];
      for (const path of await discoverMarkdown(root, dir)) {
        if (findDocument(current, path)) continue;
        const text = await readDocumentFile(root, path);
        if (text !== undefined) discovered.push({ path, content: text });
      }
      const out = reconcileIndex(current, observed, discovered, storage, newStamp());
      return out.changed.length > 0 ? out : { index: current, changed: [] };
    });
    if (changed.length > 0) await this.append(gid, 'system', { action: 'reconciled', documents: changed.map(brief) });
    return index;
  }

  async list(gid: string, includeArchived: boolean) {
    const index = await this.reconcile(gid);
    const documents = index.documents.filter((d) => d.status === 'active' || (includeArchived && d.status === 'archived'));
    return {
      group_id: gid,
      documents,
      documents_by_id: Object.fromEntries(documents.map((d) => [d.document_id, d])),
      documents_by_path: Object.fromEntries(documents.map((d) => [d.document_path, d])),
      ...(index.active_document_id ? { active_document_id: index.active_document_id, capture_target_document_id: index.active_document_id } : {}),
      ...(index.active_document_path ? { active_document_path: index.active_document_path, capture_target_document_path: index.active_document_path } : {}),
    };
  }

  /** Web's save: write the given content (or adopt / create the file), register and select it; the file is restored if the index write fails. */
  async save(args: { group_id: string; by?: string; document_path?: string; workspace_path?: string; title?: string; content?: string; status?: 'active' | 'archived'; create_new?: boolean }) {
    const gid = args.group_id;
    const group = this.deps.groups.get(gid);
    assertWriter(group, args.by);
    const by = principalOf(args.by);
    const requested = args.document_path ?? args.workspace_path;
    const dir = voiceSettingsOf(group).config.document_default_dir.replace(/\/+$/, '');
    const path = safeDocumentPath(requested && !args.create_new ? requested : (requested ?? `${dir}/voice-${new Date().toISOString().slice(0, 10)}-${newStamp().newId().slice(0, 6)}.md`));
    const { root, storage } = documentRoot(this.deps.layout.home, group);
    return this.deps.groupLocks.run(gid, async () => {
      const before = await readDocumentFile(root, path);
      const { document } = await this.store(gid).update(async (index) => {
        const known = findDocument(index, path);
        if (known?.status === 'deleted') throw voiceError(VoiceErrorCodes.documentDeleted, `${path} was deleted`, { document_path: path });
        let content: string;
        if (args.content !== undefined) {
          content = args.content;
          await writeDocumentFile(root, path, content);
        } else if (before !== undefined) {
          content = before; // never rewrite an existing repository file without content
        } else if (known) {
          content = known.content;
        } else {
          content = '';
          await writeDocumentFile(root, path, content);
        }
        return saveDocument(index, { path, content, title: args.title, status: args.status, by, storage }, newStamp());
      }).catch(async (err) => {
        if (args.content !== undefined || before === undefined) await this.restore(root, path, before).catch(() => undefined);
        throw err;
      });
      const event = await this.append(gid, by, { action: 'saved', ...brief(document) });
      return { group_id: gid, document, event };
    });
  }

  private async restore(root: string, path: string, before: string | undefined): Promise<void> {
    if (before !== undefined) await writeDocumentFile(root, path, before);
    else await rm(join(root, path), { force: true });
  }

  async archive(args: { group_id: string; by?: string; document_path: string }) {
    const group = this.deps.groups.get(args.group_id);
    assertWriter(group, args.by);
    const path = safeDocumentPath(args.document_path);
    const by = principalOf(args.by);
    return this.deps.groupLocks.run(args.group_id, async () => {
      const { document } = await this.store(args.group_id).update((index) => archiveDocument(index, path, new Date().toISOString()));
      const event = await this.append(args.group_id, by, { action: 'archived', ...brief(document) });
      return { group_id: args.group_id, document, event };
    });
  }

  /**
   * The Markdown target of transcript ingress, validated or created before any transcript state
   * commits: the requested path (registered, else its existing file adopted or an empty heading
   * created), else the active document, else a new one under document_default_dir. It becomes
   * the active selection. A deleted path is `voice_document_deleted`; an archived one is not
   * appended to (`invalid_request`). The caller holds the group lock.
   */
  async ensureTarget(gid: string, requested: string | undefined, by: string): Promise<{ document: VoiceDocument; created: boolean }> {
    const group = this.deps.groups.get(gid);
    const { root, storage } = documentRoot(this.deps.layout.home, group);
    const dir = voiceSettingsOf(group).config.document_default_dir.replace(/\/+$/, '');
    const out = await this.store(gid).update(async (index) => {
      let path = requested;
      if (!path) {
        const active = index.active_document_path ? findDocument(index, index.active_document_path) : undefined;
        if (active?.status === 'active') return { index, document: active, created: false };
        path = safeDocumentPath(`${dir}/voice-${new Date().toISOString().slice(0, 10)}-${newStamp().newId().slice(0, 6)}.md`);
      }
      const known = findDocument(index, path);
      if (known?.status === 'deleted') throw voiceError(VoiceErrorCodes.documentDeleted, `${path} was deleted`, { document_path: path });
      if (known?.status === 'archived') throw voiceError(VoiceErrorCodes.invalidRequest, `${path} is archived, not an active document`, { field: 'document_path' });
      if (known) {
        const selected = index.active_document_path === path ? index : { ...index, active_document_id: known.document_id, active_document_path: path };
        return { index: selected, document: known, created: false };
      }
      const before = await readDocumentFile(root, path);
      const content = before ?? '';
      if (before === undefined) await writeDocumentFile(root, path, content);
      return { ...saveDocument(index, { path, content, by, storage }, newStamp()), created: true };
    });
    if (out.created) await this.append(gid, by, { action: 'created', ...brief(out.document) });
    return { document: out.document, created: out.created };
  }

  async library(gid: string) {
    this.deps.groups.get(gid);
    return libraryView(await this.store(gid).read());
  }

  async libraryUpdate(args: { group_id: string; by?: string } & LibraryAction) {
    const group = this.deps.groups.get(args.group_id);
    assertWriter(group, args.by);
    return this.deps.groupLocks.run(args.group_id, async () => {
      const { index } = await this.store(args.group_id).update((current) => ({ index: applyLibraryAction(current, args, newStamp()) }));
      return libraryView(index);
    });
  }

  /**
   * Delete: refused while the group holds the recording lease. The file moves aside, then the
   * index and the event are written; a failure puts the file back. The aside copy is removed last.
   */
  async delete(args: { group_id: string; by?: string; document_path: string }) {
    const gid = args.group_id;
    const group = this.deps.groups.get(gid);
    assertWriter(group, args.by);
    const path = safeDocumentPath(args.document_path);
    const by = principalOf(args.by);
    const lease = await this.deps.voiceLease.current();
    if (lease?.group_id === gid) throw voiceError(VoiceErrorCodes.recordingActive, 'a Voice Secretary recording is active in this group', { active_lease: lease });
    const { root } = documentRoot(this.deps.layout.home, group);
    return this.deps.groupLocks.run(gid, async () => {
      const current = await this.store(gid).read();
      const known = findDocument(current, path);
      if (!known) throw voiceError(VoiceErrorCodes.documentNotFound, `no Voice Secretary document at ${path}`, { document_path: path });
      if (known.status === 'deleted') throw voiceError(VoiceErrorCodes.documentDeleted, `${path} was deleted`, { document_path: path });
      const aside = await moveAside(root, path, join(voiceDocumentsDir(this.deps.layout.home, gid), '.deleting'));
      let document: VoiceDocument;
      let event: LedgerEvent;
      try {
        ({ document } = await this.store(gid).update((index) => markDeleted(index, path, new Date().toISOString())));
        event = await this.append(gid, by, { action: 'deleted', ...brief(document) });
      } catch (err) {
        if (aside) await rename(aside, join(root, path)).catch(() => undefined);
        await this.store(gid).update((index) => ({ index: { ...index, documents: index.documents.map((d) => (d.document_path === path ? known : d)) } })).catch(() => undefined);
        throw err;
      }
      if (aside) await rm(aside, { force: true });
      return { group_id: gid, document, event };
    });
  }
}
