import { describe, expect, it } from 'vitest';
import { archiveDocument, emptyIndex, markDeleted, reconcileIndex, saveDocument } from './document-index.js';

let n = 0;
const stamp = () => ({ now: `t${++n}`, newId: () => `id${n}` });

describe('document index (pure)', () => {
  const base = saveDocument(emptyIndex(), { path: 'd/a.md', content: 'A', by: 'user', storage: 'workspace' }, stamp()).index;
  const two = saveDocument(base, { path: 'd/b.md', content: 'B', by: 'user', storage: 'workspace' }, stamp()).index;

  it('reconciles changed content only, and a missing file never clears indexed content', () => {
    const r = reconcileIndex(two, new Map([['d/a.md', 'A2']]), [], 'workspace', stamp());
    expect(r.changed.map((d) => d.document_path)).toEqual(['d/a.md']);
    expect(r.index.documents.find((d) => d.document_path === 'd/a.md')).toMatchObject({ content: 'A2', revision_count: 2 });
    expect(r.index.documents.find((d) => d.document_path === 'd/b.md')).toMatchObject({ content: 'B', revision_count: 1 });
    expect(reconcileIndex(two, new Map([['d/a.md', 'A']]), [], 'workspace', stamp()).changed).toEqual([]);
  });

  it('never rediscovers archived or deleted paths as active', () => {
    const archived = archiveDocument(two, 'd/a.md', 'now').index;
    const deleted = markDeleted(archived, 'd/b.md', 'now').index;
    const r = reconcileIndex(deleted, new Map(), [{ path: 'd/a.md', content: 'x' }, { path: 'd/b.md', content: 'y' }, { path: 'd/c.md', content: 'z' }], 'workspace', stamp());
    expect(r.changed.map((d) => d.document_path)).toEqual(['d/c.md']);
    expect(r.index.documents.map((d) => `${d.document_path}:${d.status}`)).toEqual(['d/a.md:archived', 'd/b.md:deleted', 'd/c.md:active']);
  });

  it('a deleted path is never saved again', () => {
    const deleted = markDeleted(two, 'd/a.md', 'now').index;
    expect(() => saveDocument(deleted, { path: 'd/a.md', content: 'again', by: 'user', storage: 'workspace' }, stamp())).toThrow(expect.objectContaining({ code: 'voice_document_deleted' }));
  });
});
