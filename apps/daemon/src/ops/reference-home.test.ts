import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_GROUP_ID, REFERENCE_SCOPE_KEY } from '@cccc/groups/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonFixture } from '../../test-support/daemon-fixture.js';

const gid = REFERENCE_GROUP_ID;

describe('a CCCC_HOME written by the reference implementation', () => {
  let d: DaemonFixture;
  let originalLedger: string;
  beforeAll(async () => {
    d = await DaemonFixture.start({ fromReference: true });
    originalLedger = readFileSync(join(d.home, 'groups', gid, 'ledger.jsonl'), 'utf8');
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('groups and group_show read it', async () => {
    const { groups } = await d.call('groups', {});
    expect(groups).toEqual([
      expect.objectContaining({ group_id: gid, title: 'refbench', topic: 'reference capture', running: false, state: 'active', default_scope_key: REFERENCE_SCOPE_KEY }),
    ]);
    const { group } = await d.call('group_show', { group_id: gid });
    expect(group).toMatchObject({ group_id: gid, active_scope_key: REFERENCE_SCOPE_KEY, scopes: [{ scope_key: REFERENCE_SCOPE_KEY, url: '/home/user/proj1' }] });
    expect(group.automation).toBeDefined();
  });

  it('actor_list reads its actors (peer1, disabled, foreman)', async () => {
    const { actors } = await d.call('actor_list', { group_id: gid, include_unread: true });
    expect(actors).toEqual([expect.objectContaining({ id: 'peer1', role: 'foreman', enabled: false, running: false, title: 'Peer One (cat)', command: ['cat'] })]);
    expect(actors[0]!.unread_count).toEqual(expect.any(Number));
  });

  it('group_update and actor_add append to its ledger and keep the rest of group.yaml', async () => {
    const yamlBefore = d.groupYaml(gid);
    const updated = await d.call('group_update', { group_id: gid, patch: { topic: 'ts daemon' } });
    expect(updated.group).toMatchObject({ group_id: gid, title: 'refbench', topic: 'ts daemon' });
    const added = await d.call('actor_add', { group_id: gid, actor_id: 'peer2', command: ['cat'] });
    expect(added.actor).toMatchObject({ id: 'peer2' });
    // peer1 stays foreman: the first visible actor, running or not.
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'peer3', by: 'peer2' })).toBe('permission_denied');

    const ledger = readFileSync(join(d.home, 'groups', gid, 'ledger.jsonl'), 'utf8');
    expect(ledger.startsWith(originalLedger)).toBe(true);
    const appended = ledger.slice(originalLedger.length).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(appended.map((e) => e.kind)).toEqual(['group.update', 'actor.add']);
    expect(appended[0]).toMatchObject({ group_id: gid, by: 'user', data: { patch: { topic: 'ts daemon' } } });
    expect(appended[1]).toMatchObject({ data: { actor: { id: 'peer2', command: ['cat'] } } });

    const yamlAfter = d.groupYaml(gid);
    // The reference-only sections from `automation:` up to the trailing updated_at survive untouched.
    const tail = (yaml: string) => yaml.slice(yaml.indexOf('automation:'), yaml.lastIndexOf('\nupdated_at:'));
    expect(tail(yamlAfter)).toBe(tail(yamlBefore));
    expect(tail(yamlAfter)).toContain('web_model_browser_targets');
    expect(yamlAfter).toContain('topic: ts daemon');
    const { actors } = await d.call('actor_list', { group_id: gid });
    expect(actors.map((a) => [a.id, a.role])).toEqual([
      ['peer1', 'foreman'],
      ['peer2', 'peer'],
    ]);
  });
});
