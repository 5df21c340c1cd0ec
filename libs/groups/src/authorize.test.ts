import { describe, expect, it } from 'vitest';
import { addActor } from './actor-store.js';
import { authorizeGroupAction } from './authorize.js';
import { updateGroupSettings } from './group-settings.js';
import { createGroup } from './groups.js';
import { makeTempHome } from './testing.js';

describe('authorizeGroupAction', () => {
  it('loads the group, then decides with the pure table', async () => {
    using home = makeTempHome();
    const { group_id: gid } = await createGroup(home.layout);
    await addActor(home.layout, 'user', gid, { actor_id: 'lead' });
    await addActor(home.layout, 'user', gid, { actor_id: 'peer1' });
    expect(authorizeGroupAction(home.layout, 'lead', 'group.settings', gid).role).toBe('foreman');
    expect(() => authorizeGroupAction(home.layout, 'peer1', 'group.settings', gid)).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
    expect(() => authorizeGroupAction(home.layout, 'user', 'group.read', 'g_ffffffffffff')).toThrowError(expect.objectContaining({ code: 'group_not_found' }));
    // The group's transcript visibility feeds the decision.
    expect(() => authorizeGroupAction(home.layout, 'peer1', 'actor.transcript_read', gid, { targetActorId: 'lead' })).toThrow();
    await updateGroupSettings(home.layout, gid, { terminal_transcript_visibility: 'all' });
    expect(authorizeGroupAction(home.layout, 'peer1', 'actor.transcript_read', gid, { targetActorId: 'lead' }).role).toBe('peer');
  });
});
