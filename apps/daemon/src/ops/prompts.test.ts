import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

describe('prompt ops over the socket', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start();
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('preamble get/set/reset: builtin by default, foreman may write, peer may not, confirm required', async () => {
    const gid = await groupWithTeam(d);
    const builtin = await d.call('group_preamble_get', { group_id: gid });
    expect(builtin).toMatchObject({ group_id: gid, source: 'builtin', overridden: false, filename: 'CCCC_PREAMBLE.md' });
    const ledgerBefore = d.ledgerEvents(gid).length;

    expect(await d.codeOf('group_preamble_set', { group_id: gid, content: 'x', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('group_preamble_set', { group_id: gid, content: '' })).toBe('invalid_request');
    expect(await d.codeOf('group_preamble_set', { group_id: gid, content: 'x'.repeat(512 * 1024 + 1) })).toBe('invalid_request');
    expect((await d.call('group_preamble_get', { group_id: gid })).overridden).toBe(false);

    const set = await d.call('group_preamble_set', { group_id: gid, content: 'Be brief.', by: 'lead' });
    expect(set).toMatchObject({ source: 'home', overridden: true, content: 'Be brief.', changed: true });
    expect((await d.call('group_preamble_set', { group_id: gid, content: 'Be brief.' })).changed).toBe(false);

    expect(await d.codeOf('group_preamble_reset', { group_id: gid })).toBe('invalid_request');
    expect(await d.codeOf('group_preamble_reset', { group_id: gid, confirm: 'preamble', by: 'p1' })).toBe('permission_denied');
    const reset = await d.call('group_preamble_reset', { group_id: gid, confirm: 'preamble' });
    expect(reset).toMatchObject({ source: 'builtin', overridden: false, changed: true });
    expect(await d.codeOf('group_preamble_get', { group_id: 'g_000000000000' })).toBe('group_not_found');
    expect(d.ledgerEvents(gid).length).toBe(ledgerBefore);
  });

  it('help and actor notes: foreman writes, peer reads only its own view', async () => {
    const gid = await groupWithTeam(d);
    const help = await d.call('group_help_get', { group_id: gid });
    expect(help).toMatchObject({ group_id: gid, actor_id: null, filename: 'CCCC_HELP.md' });
    expect(help.markdown.length).toBeGreaterThan(0);

    expect(await d.codeOf('actor_notes_set', { group_id: gid, target_actor_id: 'p1', content: 'hi', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('actor_notes_set', { group_id: gid, target_actor_id: 'ghost', content: 'hi' })).toBe('actor_not_found');
    const set = await d.call('actor_notes_set', { group_id: gid, target_actor_id: 'p1', content: 'Review the parser.', by: 'lead' });
    expect(set).toMatchObject({ target_actor_id: 'p1', content: 'Review the parser.', source: 'home', changed: true });

    const own = await d.call('actor_notes_get', { group_id: gid, target_actor_id: 'p1', by: 'p1' });
    expect(own).toMatchObject({ target_actor_id: 'p1', content: 'Review the parser.' });
    expect(await d.codeOf('actor_notes_get', { group_id: gid, target_actor_id: 'lead', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('actor_notes_get', { group_id: gid, by: 'p1' })).toBe('permission_denied');
    const listing = await d.call('actor_notes_get', { group_id: gid, by: 'lead' });
    expect(listing).toMatchObject({ actor_notes: [{ actor_id: 'p1', content: 'Review the parser.' }] });

    const peerHelp = await d.call('group_help_get', { group_id: gid, actor_id: 'p1', by: 'p1' });
    expect(peerHelp.markdown).toContain('Review the parser.');
    const leadHelp = await d.call('group_help_get', { group_id: gid, actor_id: 'lead' });
    expect(leadHelp.markdown).not.toContain('Review the parser.');
    expect(await d.codeOf('group_help_get', { group_id: gid, actor_id: 'lead', by: 'p1' })).toBe('permission_denied');

    const cleared = await d.call('actor_notes_clear', { group_id: gid, target_actor_id: 'p1' });
    expect(cleared).toMatchObject({ content: '', changed: true });
    expect(await d.codeOf('actor_notes_clear', { group_id: gid, target_actor_id: 'p1', by: 'p1' })).toBe('permission_denied');
  });
});
