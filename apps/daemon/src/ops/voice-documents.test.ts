import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// Voice Secretary working documents (§8.3, issue 26) through a real daemon socket.

let fx: DaemonFixture;
let gid: string;
let ws: string;
beforeAll(async () => {
  fx = await startDaemonFixture();
  ({ group_id: gid } = await fx.call('group_create', { title: 'docs' }));
  ws = fx.projectDir('voice-ws');
  await fx.call('attach', { path: ws, group_id: gid });
  await fx.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
  await fx.call('actor_add', { group_id: gid, actor_id: 'p1', runtime: 'custom', command: ['cat'] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

const P = 'docs/voice-secretary/meeting.md';
const kinds = () => fx.ledgerEvents(gid).filter((e) => e.kind === 'assistant.voice.document').map((e) => e.data.action);
const indexFile = () => join(fx.home, 'voice-secretary', gid, 'documents', 'index.json');
const indexText = () => (existsSync(indexFile()) ? readFileSync(indexFile(), 'utf8') : '');

describe('voice documents', () => {
  it('save writes the repository Markdown, registers and selects it; list answers it', async () => {
    const r = await fx.call('assistant_voice_document_save', { group_id: gid, document_path: P, content: '# Meeting\n', title: 'Weekly' });
    expect(readFileSync(join(ws, P), 'utf8')).toBe('# Meeting\n');
    expect(r.document).toMatchObject({ document_path: P, title: 'Weekly', status: 'active', storage_kind: 'workspace', content_chars: 10, revision_count: 1 });
    expect(r.event).toMatchObject({ kind: 'assistant.voice.document', data: { action: 'saved', document_path: P } });
    expect(JSON.stringify(r.event)).not.toContain('# Meeting');
    const list = await fx.call('assistant_voice_document_list', { group_id: gid });
    expect(list.documents.map((d) => d.document_path)).toEqual([P]);
    expect(list).toMatchObject({ active_document_path: P, capture_target_document_path: P });
    expect(list.documents_by_path[P]).toMatchObject({ title: 'Weekly' });
  });

  it('list reconciles repository edits (only when content changed) and discovers new .md files under document_default_dir', async () => {
    const before = kinds().length;
    writeFileSync(join(ws, P), '# Meeting\n\nEdited by the secretary.\n');
    mkdirSync(join(ws, 'docs/voice-secretary/sub'), { recursive: true });
    writeFileSync(join(ws, 'docs/voice-secretary/sub/new.md'), 'new doc');
    writeFileSync(join(ws, 'outside.md'), 'not under the default dir');
    const list = await fx.call('assistant_voice_document_list', { group_id: gid });
    expect(list.documents_by_path[P]).toMatchObject({ content: '# Meeting\n\nEdited by the secretary.\n', revision_count: 2 });
    expect(Object.keys(list.documents_by_path).sort()).toEqual([P, 'docs/voice-secretary/sub/new.md']);
    expect(kinds().slice(before)).toEqual(['reconciled']);
    await fx.call('assistant_voice_document_list', { group_id: gid });
    expect(kinds().slice(before)).toEqual(['reconciled']); // nothing changed: no event, same revision
    expect((await fx.call('assistant_voice_document_list', { group_id: gid })).documents_by_path[P]).toMatchObject({ revision_count: 2 });
  });

  it('save without content adopts an existing file and never rewrites it', async () => {
    writeFileSync(join(ws, 'docs/voice-secretary/existing.md'), 'keep me');
    const r = await fx.call('assistant_voice_document_save', { group_id: gid, document_path: 'docs/voice-secretary/existing.md' });
    expect(r.document).toMatchObject({ content: 'keep me' });
    expect(readFileSync(join(ws, 'docs/voice-secretary/existing.md'), 'utf8')).toBe('keep me');
    const created = await fx.call('assistant_voice_document_save', { group_id: gid, create_new: true });
    expect(created.document.document_path).toMatch(/^docs\/voice-secretary\/voice-.*\.md$/);
    expect(readFileSync(join(ws, created.document.document_path as string), 'utf8')).toBe('');
  });

  it('refuses traversal, absolute, non-.md and symlinked paths and peers, writing nothing', async () => {
    const outside = fx.projectDir('elsewhere');
    symlinkSync(outside, join(ws, 'docs', 'linked'));
    const snap = fx.snapshot(gid);
    const idx = indexText();
    const save = (extra: Record<string, unknown>) => fx.codeOf('assistant_voice_document_save', { group_id: gid, content: 'x', ...extra });
    expect(await save({ document_path: '../escape.md' })).toBe('invalid_path');
    expect(await save({ document_path: '/etc/x.md' })).toBe('invalid_path');
    expect(await save({ document_path: 'docs/x.txt' })).toBe('invalid_path');
    expect(await save({ document_path: 'docs/linked/x.md' })).toBe('invalid_path');
    expect(await save({ document_path: 'docs/ok.md', by: 'p1' })).toBe('permission_denied');
    expect(existsSync(join(outside, 'x.md'))).toBe(false);
    expect(existsSync(join(ws, 'docs/ok.md'))).toBe(false);
    expect(fx.snapshot(gid)).toEqual(snap);
    expect(indexText()).toBe(idx);
  });

  it('archive hides a document from the active list and moves the selection off it; the library keeps it', async () => {
    await fx.call('assistant_voice_document_save', { group_id: gid, document_path: P });
    const a = await fx.call('assistant_voice_document_archive', { group_id: gid, document_path: P });
    expect(a.document).toMatchObject({ status: 'archived' });
    expect(existsSync(join(ws, P))).toBe(true);
    const list = await fx.call('assistant_voice_document_list', { group_id: gid });
    expect(list.documents_by_path[P]).toBeUndefined();
    expect(list.active_document_path).toBeUndefined();
    expect((await fx.call('assistant_voice_document_list', { group_id: gid, include_archived: true })).documents_by_path[P]).toMatchObject({ status: 'archived' });
    expect((await fx.call('assistant_voice_document_library', { group_id: gid })).documents.map((d) => d.document_path)).toContain(P);
    expect(await fx.codeOf('assistant_voice_document_archive', { group_id: gid, document_path: 'docs/none.md' })).toBe('voice_document_not_found');
  });

  it('library_update: folders, moves, titles, order and restore, with their error codes', async () => {
    const up = (args: Record<string, unknown>) => fx.call('assistant_voice_document_library_update', { group_id: gid, ...args } as never);
    const lib = await up({ action: 'create_folder', name: 'Meetings' });
    const folder = lib.folders[0]!.folder_id;
    expect(await fx.codeOf('assistant_voice_document_library_update', { group_id: gid, action: 'create_folder', name: 'Meetings' })).toBe('voice_folder_exists');
    expect(await fx.codeOf('assistant_voice_document_library_update', { group_id: gid, action: 'create_folder', name: 'x'.repeat(81) })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_voice_document_library_update', { group_id: gid, action: 'rename_folder', folder_id: 'vfold_none', name: 'y' })).toBe('voice_folder_not_found');
    expect(await fx.codeOf('assistant_voice_document_library_update', { group_id: gid, action: 'move', document_path: P, folder_id: 'vfold_none' })).toBe('voice_folder_not_found');
    expect(await fx.codeOf('assistant_voice_document_library_update', { group_id: gid, action: 'reorder_root' })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_voice_document_library_update', { group_id: gid, action: 'create_folder', name: 'Z', by: 'p1' })).toBe('permission_denied');
    const moved = await up({ action: 'move', document_path: P, folder_id: folder });
    expect(moved.documents.find((d) => d.document_path === P)).toMatchObject({ folder_id: folder });
    const renamed = await up({ action: 'rename', document_path: P, name: 'Standup' });
    expect(renamed.documents.find((d) => d.document_path === P)).toMatchObject({ title: 'Standup', document_path: P });
    const ordered = await up({ action: 'reorder_root', root_order: [`folder:${folder}`, `folder:${folder}`, 'document:docs/voice-secretary/existing.md', 'folder:ghost', 'document:nope.md'] });
    expect(ordered.root_order).toEqual([`folder:${folder}`, 'document:docs/voice-secretary/existing.md']);
    const restored = await up({ action: 'restore', document_path: P });
    expect(restored.documents.find((d) => d.document_path === P)).toMatchObject({ status: 'active', folder_id: folder });
    expect(await fx.codeOf('assistant_voice_document_library_update', { group_id: gid, action: 'restore', document_path: P })).toBe('invalid_request');
    const removed = await up({ action: 'remove_folder', folder_id: folder });
    expect(removed.folders).toEqual([]);
    expect(removed.root_order).toEqual(['document:docs/voice-secretary/existing.md']);
    expect(removed.documents.find((d) => d.document_path === P)).not.toHaveProperty('folder_id');
    expect(existsSync(join(ws, P))).toBe(true);
  });

  it('delete: refused while the group records; then the file goes, the entry is deleted for good', async () => {
    const a = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-1', dispatch_target: 'composer' });
    expect(await fx.codeOf('assistant_voice_document_delete', { group_id: gid, document_path: P })).toBe('voice_recording_active');
    expect(existsSync(join(ws, P))).toBe(true);
    await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'release', owner_id: 'tab-1', lease_id: a.lease_id });
    expect(await fx.codeOf('assistant_voice_document_delete', { group_id: gid, document_path: P, by: 'p1' })).toBe('permission_denied');
    const d = await fx.call('assistant_voice_document_delete', { group_id: gid, document_path: P });
    expect(d.document).toMatchObject({ status: 'deleted' });
    expect(d.event).toMatchObject({ kind: 'assistant.voice.document', data: { action: 'deleted' } });
    expect(existsSync(join(ws, P))).toBe(false);
    expect(existsSync(join(fx.home, 'voice-secretary', gid, 'documents', '.deleting'))).toBe(true);
    expect(await fx.codeOf('assistant_voice_document_delete', { group_id: gid, document_path: P })).toBe('voice_document_deleted');
    expect(await fx.codeOf('assistant_voice_document_save', { group_id: gid, document_path: P, content: 'again' })).toBe('voice_document_deleted');
    expect(existsSync(join(ws, P))).toBe(false);
    expect(await fx.codeOf('assistant_voice_document_archive', { group_id: gid, document_path: P })).toBe('voice_document_deleted');
    expect(await fx.codeOf('assistant_voice_document_library_update', { group_id: gid, action: 'restore', document_path: P })).toBe('voice_document_deleted');
    // Re-created on disk by someone else: never rediscovered as active.
    writeFileSync(join(ws, P), 'back');
    const list = await fx.call('assistant_voice_document_list', { group_id: gid, include_archived: true });
    expect(list.documents_by_path[P]).toBeUndefined();
    expect((await fx.call('assistant_voice_document_library', { group_id: gid })).documents.map((x) => x.document_path)).not.toContain(P);
  });

  it('without a workspace the documents live under CCCC_HOME', async () => {
    const { group_id: g } = await fx.call('group_create', { title: 'homeless' });
    const r = await fx.call('assistant_voice_document_save', { group_id: g, document_path: 'notes/a.md', content: 'hi' });
    expect(r.document).toMatchObject({ storage_kind: 'home' });
    expect(readFileSync(join(fx.home, 'voice-secretary', g, 'documents', 'notes', 'a.md'), 'utf8')).toBe('hi');
  });
});
