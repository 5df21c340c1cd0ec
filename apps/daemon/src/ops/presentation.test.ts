import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.13 presentation_get|publish|clear through the daemon's socket; the reference's
// tests/test_presentation_ops.py scenarios, ported, plus every error.

describe('presentation (§8.13)', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start();
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });
  const snapshotPath = (gid: string) => join(d.home, 'groups', gid, 'state', 'presentation.json');
  const presentationEvents = (gid: string) => events(d, gid).filter((e) => e.kind.startsWith('presentation.'));
  const newGroup = (title = 'board') => groupWithTeam(d, title);

  it('publishes to the first empty slot and reads it back; the snapshot file holds the highlight', async () => {
    const gid = await newGroup();
    const empty = await d.call('presentation_get', { group_id: gid });
    expect(empty.presentation.slots.map((s) => [s.slot_id, s.index, s.card])).toEqual([
      ['slot-1', 1, undefined],
      ['slot-2', 2, undefined],
      ['slot-3', 3, undefined],
      ['slot-4', 4, undefined],
    ]);
    expect(existsSync(snapshotPath(gid))).toBe(false);

    const published = await d.call('presentation_publish', { group_id: gid, slot: 'auto', title: 'Weekly Summary', content: '# Weekly\n\n- shipped' });
    expect(published).toMatchObject({ slot_id: 'slot-1', replaced: false, card: { card_type: 'markdown', title: 'Weekly Summary', published_by: 'user', content: { mode: 'inline', markdown: '# Weekly\n\n- shipped' } } });
    expect(published.event_id).toBe(published.event.id);
    expect(published.event).toMatchObject({ kind: 'presentation.publish', by: 'user', data: { slot_id: 'slot-1', title: 'Weekly Summary', card_type: 'markdown', source_label: '', source_ref: '', summary: '' } });

    const fetched = await d.call('presentation_get', { group_id: gid });
    expect(fetched.presentation.highlight_slot_id).toBe('slot-1');
    expect(fetched.presentation.slots[0]!.card!.title).toBe('Weekly Summary');
    const onDisk = JSON.parse(readFileSync(snapshotPath(gid), 'utf8'));
    expect(onDisk).toMatchObject({ v: 1, highlight_slot_id: 'slot-1' });
    expect(presentationEvents(gid).map((e) => e.kind)).toEqual(['presentation.publish']);
  });

  it('auto takes the first empty slot, then the oldest published one; a replacement says so', async () => {
    const gid = await newGroup();
    for (let i = 1; i <= 4; i++) expect((await d.call('presentation_publish', { group_id: gid, content: `card ${i}` })).slot_id).toBe(`slot-${i}`);
    await d.call('presentation_publish', { group_id: gid, slot: 'slot-1', content: 'fresh one' });
    const fifth = await d.call('presentation_publish', { group_id: gid, slot: 'auto', content: 'fifth' });
    expect(fifth).toMatchObject({ slot_id: 'slot-2', replaced: true });
    const again = await d.call('presentation_publish', { group_id: gid, slot: 'slot-3', url: 'https://example.com/two', card_type: 'web_preview', title: 'Updated' });
    expect(again).toMatchObject({ replaced: true, card: { content: { mode: 'reference', url: 'https://example.com/two' }, source_ref: 'https://example.com/two' } });
    expect(again.presentation.highlight_slot_id).toBe('slot-3');
  });

  it('inline web_preview content becomes a blob of the group; clearing the slot empties it', async () => {
    const gid = await newGroup();
    const published = await d.call('presentation_publish', { group_id: gid, slot: 'slot-2', card_type: 'web_preview', title: 'Preview', content: '<html><body><h1>demo</h1></body></html>' });
    const blob = published.card.content.blob_rel_path!;
    expect(blob).toMatch(/^state\/blobs\/[0-9a-f]{64}_Preview\.html$/);
    expect(readFileSync(join(d.home, 'groups', gid, blob), 'utf8')).toContain('<h1>demo</h1>');
    expect(published.card).toMatchObject({ source_ref: 'inline-html', content: { mode: 'reference', mime_type: 'text/html' } });

    const cleared = await d.call('presentation_clear', { group_id: gid, slot: 'slot-2' });
    expect(cleared).toMatchObject({ slot_id: 'slot-2', cleared_slots: ['slot-2'] });
    expect(cleared.event_id).toBe(cleared.event.id);
    expect(cleared.event).toMatchObject({ kind: 'presentation.clear', data: { slot_id: 'slot-2', cleared_all: false, cleared_slots: ['slot-2'] } });
    const after = await d.call('presentation_get', { group_id: gid });
    expect(after.presentation.slots[1]!.card).toBeUndefined();
    expect(after.presentation.highlight_slot_id).toBe('');
  });

  it('a workspace path publishes a live link below the active scope', async () => {
    const gid = await newGroup();
    const dir = d.projectDir(`present-${gid}`);
    writeFileSync(join(dir, 'notes.md'), '# v1\n');
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'chart.png'), 'png');
    await d.call('attach', { group_id: gid, path: dir });
    const md = await d.call('presentation_publish', { group_id: gid, slot: 'slot-1', path: 'notes.md' });
    expect(md.card).toMatchObject({ card_type: 'markdown', title: 'notes.md', source_ref: 'notes.md', source_label: 'notes.md', content: { mode: 'workspace_link', workspace_rel_path: 'notes.md', file_name: 'notes.md', mime_type: 'text/markdown' } });
    expect(md.card.content.blob_rel_path).toBeUndefined();
    const img = await d.call('presentation_publish', { group_id: gid, path: join(dir, 'docs', 'chart.png') });
    expect(img.card).toMatchObject({ card_type: 'image', content: { workspace_rel_path: 'docs/chart.png', mime_type: 'image/png' } });

    const outside = join(d.home, 'outside.md');
    writeFileSync(outside, 'secret');
    symlinkSync(outside, join(dir, 'link.md'));
    const before = readFileSync(snapshotPath(gid), 'utf8');
    const count = presentationEvents(gid).length;
    expect(await d.codeOf('presentation_publish', { group_id: gid, path: '../outside.md' })).toBe('outside_scope');
    expect(await d.codeOf('presentation_publish', { group_id: gid, path: outside })).toBe('outside_scope');
    expect(await d.codeOf('presentation_publish', { group_id: gid, path: 'link.md' })).toBe('outside_scope');
    expect(await d.codeOf('presentation_publish', { group_id: gid, path: 'missing.md' })).toBe('path_not_found');
    expect(await d.codeOf('presentation_publish', { group_id: gid, path: 'docs', card_type: 'file' })).toBe('invalid_path');
    expect(readFileSync(snapshotPath(gid), 'utf8')).toBe(before);
    expect(presentationEvents(gid)).toHaveLength(count);
  });

  it('a workspace path needs an attached scope', async () => {
    const gid = await newGroup();
    expect(await d.codeOf('presentation_publish', { group_id: gid, path: 'notes.md' })).toBe('no_active_scope');
  });

  it('tables: {columns, rows}, row objects, or a list of row objects', async () => {
    const gid = await newGroup();
    const a = await d.call('presentation_publish', { group_id: gid, table: { columns: ['name', 'n'], rows: [['a', 1], { name: 'b', n: 2 }] } });
    expect(a.card).toMatchObject({ card_type: 'table', title: 'table', content: { mode: 'inline', table: { columns: ['name', 'n'], rows: [['a', '1'], ['b', '2']] } } });
    const b = await d.call('presentation_publish', { group_id: gid, table: [{ x: 'one' }, { x: 'two', y: true }] });
    expect(b.card.content.table).toEqual({ columns: ['x', 'y'], rows: [['one', ''], ['two', 'true']] });
    const c = await d.call('presentation_publish', { group_id: gid, table: { rows: [{ k: 'v' }] } });
    expect(c.card.content.table).toEqual({ columns: ['k'], rows: [['v']] });
    expect(await d.codeOf('presentation_publish', { group_id: gid, table: { rows: 'nope' } })).toBe('invalid_card');
    expect(await d.codeOf('presentation_publish', { group_id: gid, table: [] })).toBe('invalid_card');
  });

  it('remote references must be absolute http(s) URLs; nothing changes on refusal', async () => {
    const gid = await newGroup();
    for (const url of ['javascript:alert(document.domain)', 'file:///etc/passwd', '/relative/path.pdf', 'data:text/html,hi']) {
      expect(await d.codeOf('presentation_publish', { group_id: gid, slot: 'slot-1', card_type: 'web_preview', url }), url).toBe('invalid_card');
    }
    const pdf = await d.call('presentation_publish', { group_id: gid, url: 'https://example.com/files/report.pdf' });
    expect(pdf.card).toMatchObject({ card_type: 'pdf', title: 'report.pdf', source_label: 'report.pdf', content: { mode: 'reference', mime_type: 'application/pdf', file_name: 'report.pdf' } });
    expect(presentationEvents(gid)).toHaveLength(1);
  });

  it('blob references must name a stored blob of the group', async () => {
    const gid = await newGroup();
    const stored = await d.call('presentation_publish', { group_id: gid, card_type: 'web_preview', content: '<p>x</p>', title: 'x' });
    const rel = stored.card.content.blob_rel_path!;
    const byName = await d.call('presentation_publish', { group_id: gid, card_type: 'file', blob_rel_path: rel.slice('state/blobs/'.length) });
    expect(byName.card).toMatchObject({ card_type: 'file', source_ref: rel, content: { blob_rel_path: rel, file_name: 'x.html' } });
    for (const blob_rel_path of ['state/blobs/../../group.yaml', 'state/blobs/nothere.png', `state/blobs/${'a'.repeat(64)}_missing.png`]) {
      expect(await d.codeOf('presentation_publish', { group_id: gid, card_type: 'image', blob_rel_path }), blob_rel_path).toBe('blob_not_found');
    }
  });

  it('refuses cards without content and bad slots or types', async () => {
    const gid = await newGroup();
    expect(await d.codeOf('presentation_publish', { group_id: gid })).toBe('invalid_card');
    expect(await d.codeOf('presentation_publish', { group_id: gid, card_type: 'markdown' })).toBe('invalid_card');
    expect(await d.codeOf('presentation_publish', { group_id: gid, card_type: 'table', content: 'x' })).toBe('invalid_card');
    expect(await d.codeOf('presentation_publish', { group_id: gid, card_type: 'image', content: 'x' })).toBe('invalid_card');
    expect((await d.errorOf('presentation_publish', { group_id: gid, slot: 'slot-9', content: 'x' })).details).toMatchObject({ field: 'slot' });
    expect(await d.codeOf('presentation_publish', { group_id: gid, card_type: 'video', content: 'x' })).toBe('invalid_request');
    expect(await d.codeOf('presentation_clear', { group_id: gid, slot: 'slot-0' })).toBe('invalid_request');
    expect(await d.codeOf('presentation_get', {})).toBe('missing_group_id');
    for (const op of ['presentation_get', 'presentation_publish', 'presentation_clear']) {
      expect(await d.codeOf(op, { group_id: 'g_000000000000', content: 'x' })).toBe('group_not_found');
    }
    expect(existsSync(snapshotPath(gid))).toBe(false);
    expect(presentationEvents(gid)).toEqual([]);
  });

  it('publishers: the user, the system, or an actor of the group', async () => {
    const gid = await newGroup();
    expect((await d.call('presentation_publish', { group_id: gid, by: 'p1', content: 'from a peer', summary: ' tests pass ' })).card).toMatchObject({ published_by: 'p1', summary: 'tests pass' });
    expect((await d.call('presentation_publish', { group_id: gid, by: 'system', content: 'from the system' })).event.by).toBe('system');
    expect(await d.codeOf('presentation_publish', { group_id: gid, by: 'stranger', content: 'x' })).toBe('permission_denied');
    expect(await d.codeOf('presentation_publish', { group_id: gid, by: 'svc:bot', content: 'x' })).toBe('permission_denied');
    expect(await d.codeOf('presentation_clear', { group_id: gid, by: 'stranger', all: true })).toBe('permission_denied');
    expect(presentationEvents(gid)).toHaveLength(2);
  });

  it('clear all (or no slot) empties every occupied slot in one event', async () => {
    const gid = await newGroup();
    await d.call('presentation_publish', { group_id: gid, slot: 'slot-2', content: 'a' });
    await d.call('presentation_publish', { group_id: gid, slot: 'slot-4', content: 'b' });
    const all = await d.call('presentation_clear', { group_id: gid, slot: 'slot-1', all: true });
    expect(all).toMatchObject({ slot_id: '', cleared_slots: ['slot-2', 'slot-4'], event: { data: { slot_id: '', cleared_all: true, cleared_slots: ['slot-2', 'slot-4'] } } });
    expect(all.presentation.slots.every((s) => !s.card)).toBe(true);
    await d.call('presentation_publish', { group_id: gid, slot: 'slot-3', content: 'c' });
    const implicit = await d.call('presentation_clear', { group_id: gid });
    expect(implicit).toMatchObject({ slot_id: 'slot-3', cleared_slots: ['slot-3'], event: { data: { cleared_all: true } } });
  });

  it('a failed ledger append rolls the snapshot back for publish and clear', async () => {
    const gid = await newGroup();
    const ledgers = d.services.ledgers;
    const append = ledgers.append.bind(ledgers);
    const failing = () => {
      ledgers.append = (() => Promise.reject(new Error('forced ledger failure'))) as typeof ledgers.append;
    };
    try {
      failing();
      expect(await d.codeOf('presentation_publish', { group_id: gid, slot: 'slot-1', content: 'must roll back' })).toBe('internal_error');
      ledgers.append = append;
      expect(existsSync(snapshotPath(gid))).toBe(false);
      expect((await d.call('presentation_get', { group_id: gid })).presentation.slots.every((s) => !s.card)).toBe(true);

      await d.call('presentation_publish', { group_id: gid, slot: 'slot-1', content: 'keep me' });
      const kept = readFileSync(snapshotPath(gid), 'utf8');
      failing();
      expect(await d.codeOf('presentation_clear', { group_id: gid, slot: 'slot-1' })).toBe('internal_error');
      expect(await d.codeOf('presentation_publish', { group_id: gid, slot: 'slot-1', content: 'replacement' })).toBe('internal_error');
      ledgers.append = append;
      expect(readFileSync(snapshotPath(gid), 'utf8')).toBe(kept);
      expect((await d.call('presentation_get', { group_id: gid })).presentation.slots[0]!.card!.content.markdown).toBe('keep me');
    } finally {
      ledgers.append = append;
    }
  });

  it('a hand-edited snapshot is read as four ordered slots, bad cards dropped', async () => {
    const gid = await newGroup();
    mkdirSync(join(d.home, 'groups', gid, 'state'), { recursive: true });
    writeFileSync(snapshotPath(gid), JSON.stringify({ v: 1, highlight_slot_id: 'slot-7', slots: [{ slot_id: 'slot-2', card: { title: 'broken' } }] }));
    const got = await d.call('presentation_get', { group_id: gid });
    expect(got.presentation).toMatchObject({ highlight_slot_id: '', slots: [{ slot_id: 'slot-1' }, { slot_id: 'slot-2' }, { slot_id: 'slot-3' }, { slot_id: 'slot-4' }] });
    expect(got.presentation.slots.every((s) => !s.card)).toBe(true);
    rmSync(snapshotPath(gid));
  });
});
