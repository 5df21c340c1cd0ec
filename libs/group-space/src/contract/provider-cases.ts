import { expect, it } from 'vitest';
import type { SpaceProvider } from '../provider.js';

export interface ProviderContractOptions {
  /** A fresh, empty provider. */
  open(): SpaceProvider | Promise<SpaceProvider>;
  close?(provider: SpaceProvider): void | Promise<void>;
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

/** The rules every Group Space provider keeps (spec §8.18: idempotent mutations, cited queries, not_found). */
export function providerCases(options: ProviderContractOptions): void {
  const withProvider = async (fn: (p: SpaceProvider) => Promise<void>) => {
    const p = await options.open();
    try {
      await fn(p);
    } finally {
      await options.close?.(p);
    }
  };

  it('P1: a created space is listed and asserted; an unknown one is space_provider_not_found', () =>
    withProvider(async (p) => {
      const s = await p.createSpace('Team work');
      expect((await p.listSpaces()).map((x) => x.remote_space_id)).toContain(s.remote_space_id);
      await p.assertSpace(s.remote_space_id);
      expect(await codeOf(p.assertSpace('nope'))).toBe('space_provider_not_found');
      expect(await codeOf(p.addSource('nope', { title: 't', content: 'c', source_type: 'text' }, 'k'))).toBe('space_provider_not_found');
    }));

  it('P2: addSource is idempotent by token: a replay returns the first source and adds nothing', () =>
    withProvider(async (p) => {
      const s = await p.createSpace('idem');
      const a = await p.addSource(s.remote_space_id, { title: 'Decision', content: 'We chose SQLite FTS5 because it needs no server.', source_type: 'text' }, 'job-1');
      const b = await p.addSource(s.remote_space_id, { title: 'Decision', content: 'We chose SQLite FTS5 because it needs no server.', source_type: 'text' }, 'job-1');
      expect(a.created).toBe(true);
      expect(b.created).toBe(false);
      expect(b.source.source_id).toBe(a.source.source_id);
      expect(await p.listSources(s.remote_space_id)).toHaveLength(1);
      expect(await p.countSources(s.remote_space_id)).toEqual({ total: 1, files: 0 });
      expect((await p.sourcesByToken(s.remote_space_id, 'job-1'))?.map((x) => x.source_id)).toEqual([a.source.source_id]);
      expect(await p.sourcesByToken(s.remote_space_id, 'job-2')).toEqual([]);
    }));

  it('P3: a query cites the sources its answer comes from, best first; source_ids restricts it', () =>
    withProvider(async (p) => {
      const s = (await p.createSpace('q')).remote_space_id;
      const db = (await p.addSource(s, { title: 'Storage', content: 'The ledger index uses SQLite. Backups run nightly.', source_type: 'text' }, 't1')).source;
      const ui = (await p.addSource(s, { title: 'UI', content: 'The web app is React with a terminal pane.', source_type: 'text' }, 't2')).source;
      await p.addSource(s, { title: 'Other', content: 'Nothing relevant here at all.', source_type: 'text' }, 't3');
      const r = await p.query(s, 'which database does the ledger index use?', {});
      expect(r.references[0]).toMatchObject({ citation: 1, source_id: db.source_id, title: 'Storage' });
      expect(r.answer).toContain('SQLite');
      expect(r.answer).toContain('[1]');
      const only = await p.query(s, 'sqlite react', { source_ids: [ui.source_id] });
      expect(only.references.map((x) => x.source_id)).toEqual([ui.source_id]);
      expect((await p.query(s, '!!! ???', {})).references).toEqual([]);
    }));

  it('P4: rename, refresh and delete change the source; an unknown source is space_provider_not_found', () =>
    withProvider(async (p) => {
      const s = (await p.createSpace('m')).remote_space_id;
      const src = (await p.addSource(s, { title: 'Old', content: 'zebra crossing notes', source_type: 'text' }, 't')).source;
      expect((await p.renameSource(s, src.source_id, 'New')).title).toBe('New');
      expect((await p.refreshSource(s, src.source_id)).refreshed).toBe(true);
      expect((await p.query(s, 'zebra', {})).references[0]?.title).toBe('New');
      expect(await p.deleteSource(s, src.source_id)).toEqual({ deleted: true });
      expect(await p.listSources(s)).toEqual([]);
      expect((await p.query(s, 'zebra', {})).references).toEqual([]);
      expect(await codeOf(p.deleteSource(s, src.source_id))).toBe('space_provider_not_found');
      expect(await codeOf(p.renameSource(s, 'src_missing', 'x'))).toBe('space_provider_not_found');
    }));

  it('P5: artifacts: a supported kind generates once per token and downloads; others are capability_unavailable', () =>
    withProvider(async (p) => {
      const s = (await p.createSpace('a')).remote_space_id;
      await p.addSource(s, { title: 'Plan', content: 'Ship the space tab.', source_type: 'text' }, 't');
      const kind = p.artifactKinds[0];
      if (kind === undefined) return;
      const a = await p.generateArtifact(s, kind, 'g1');
      expect((await p.generateArtifact(s, kind, 'g1')).artifact_id).toBe(a.artifact_id);
      expect(await p.listArtifacts(s)).toHaveLength(1);
      expect((await p.readArtifact(s, a.artifact_id)).content.length).toBeGreaterThan(0);
      expect(await codeOf(p.generateArtifact(s, 'video_that_does_not_exist', 'g2'))).toBe('capability_unavailable');
    }));
}
