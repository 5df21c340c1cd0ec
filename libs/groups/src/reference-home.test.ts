import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addActor } from './actor-store.js';
import { loadGroup, updateGroup } from './group-store.js';
import { listGroups, reconcileRegistry, setGroupState, showGroup } from './groups.js';
import { updateGroupSettings } from './group-settings.js';
import { readRegistry } from './registry-store.js';
import { makeTempHome, REFERENCE_GROUP_ID, REFERENCE_HOME_FIXTURE, REFERENCE_SCOPE_KEY } from './testing.js';
import { parseYamlDocument } from './yaml-file.js';

const FIXTURE_YAML = readFileSync(join(REFERENCE_HOME_FIXTURE, 'groups', REFERENCE_GROUP_ID, 'group.yaml'), 'utf8');

describe('a home written by the reference daemon', () => {
  it('opens: registry, group, actors, scopes', () => {
    using home = makeTempHome({ fromReference: true });
    const registry = readRegistry(home.layout);
    expect(Object.keys(registry.groups)).toEqual([REFERENCE_GROUP_ID]);
    expect(registry.defaults[REFERENCE_SCOPE_KEY]).toBe(REFERENCE_GROUP_ID);
    const group = loadGroup(home.layout, REFERENCE_GROUP_ID);
    expect(group.title).toBe('refbench');
    expect(group.actors.map((a) => [a.id, a.enabled, a.command])).toEqual([['peer1', false, ['cat']]]);
    expect(group.scopes[0]).toMatchObject({ scope_key: REFERENCE_SCOPE_KEY, url: '/home/user/proj1', label: 'proj1' });
    expect(listGroups(home.layout)).toEqual([
      expect.objectContaining({ group_id: REFERENCE_GROUP_ID, state: 'active', running: false, default_scope_key: REFERENCE_SCOPE_KEY }),
    ]);
    expect(showGroup(home.layout, REFERENCE_GROUP_ID).group).toMatchObject({ web_model_browser_targets: {}, automation: { version: 1 } });
  });

  it('re-serialises an untouched group.yaml byte for byte', () => {
    const doc = parseYamlDocument(FIXTURE_YAML);
    expect(doc.toString({ indentSeq: false, lineWidth: 0, singleQuote: true })).toBe(FIXTURE_YAML);
  });

  it('a write changes only what it touches and keeps unknown keys', async () => {
    using home = makeTempHome({ fromReference: true });
    await updateGroupSettings(home.layout, REFERENCE_GROUP_ID, { default_send_to: 'broadcast' });
    const after = readFileSync(home.layout.groupYamlPath(REFERENCE_GROUP_ID), 'utf8');
    const strip = (s: string) =>
      s
        .split('\n')
        .filter((l) => !l.startsWith('updated_at:') && !l.startsWith('messaging:') && !l.startsWith('  default_send_to:'))
        .join('\n');
    expect(strip(after)).toBe(strip(FIXTURE_YAML));
    expect(after).toContain("messaging:\n  default_send_to: broadcast\n");
    expect(after).toContain('web_model_browser_targets: {}');
    expect(after).toContain("      snippet_ref: standup\n");
    expect(after).toMatch(/^updated_at: '\d{4}-\d\d-\d\dT[\d:.]+Z'$/m);
  });

  it('keeps unknown keys inside actors when one actor changes', async () => {
    using home = makeTempHome({ fromReference: true });
    const path = home.layout.groupYamlPath(REFERENCE_GROUP_ID);
    const withExtra = FIXTURE_YAML.replace('  runtime: custom\n', '  runtime: custom\n  future_field: {nested: [1, 2]}  # a comment\n');
    (await import('node:fs')).writeFileSync(path, withExtra);
    await updateGroup(home.layout, REFERENCE_GROUP_ID, (g) => void (g.actors[0]!.title = 'Renamed'));
    const after = readFileSync(path, 'utf8');
    expect(after).toContain('  title: Renamed\n');
    // Flow collections are re-spaced by the YAML printer; key, value and comment survive.
    expect(after).toMatch(/\n {2}future_field: \{ ?nested: \[ ?1, 2 ?\] ?\} +# a comment\n/);
    expect(loadGroup(home.layout, REFERENCE_GROUP_ID).actors[0]).toMatchObject({ future_field: { nested: [1, 2] } });
  });

  it('adding an actor appends to actors[] and keeps the existing actor as foreman', async () => {
    using home = makeTempHome({ fromReference: true });
    const { actor } = await addActor(home.layout, 'user', REFERENCE_GROUP_ID, { runtime: 'claude', command: 'claude --dangerously "x y"' });
    expect(actor.id).toBe('claude-1');
    const group = loadGroup(home.layout, REFERENCE_GROUP_ID);
    expect(group.actors.map((a) => a.id)).toEqual(['peer1', 'claude-1']);
    expect(group.actors[1]!.command).toEqual(['claude', '--dangerously', 'x y']);
    const text = readFileSync(home.layout.groupYamlPath(REFERENCE_GROUP_ID), 'utf8');
    expect(text.startsWith(FIXTURE_YAML.slice(0, FIXTURE_YAML.indexOf('automation:')).split('actors:')[0]!)).toBe(true);
  });

  it('registry writes keep unknown keys and the reference layout', async () => {
    using home = makeTempHome({ fromReference: true });
    const fs = await import('node:fs');
    const raw = JSON.parse(fs.readFileSync(home.layout.registryPath, 'utf8'));
    raw.future = { x: 1 };
    raw.groups[REFERENCE_GROUP_ID].extra = 'kept';
    fs.writeFileSync(home.layout.registryPath, JSON.stringify(raw, null, 2));
    await setGroupState(home.layout, REFERENCE_GROUP_ID, 'paused');
    await reconcileRegistry(home.layout, { removeMissing: true });
    const { createGroup } = await import('./groups.js');
    await createGroup(home.layout, { title: 'second' });
    const after = JSON.parse(fs.readFileSync(home.layout.registryPath, 'utf8'));
    expect(after.future).toEqual({ x: 1 });
    expect(after.groups[REFERENCE_GROUP_ID].extra).toBe('kept');
    expect(after.created_at).toBe('2026-11-30T08:42:36.695748Z');
    expect(Object.keys(after.groups)).toHaveLength(2);
  });
});
