import { describe, expect, it } from 'vitest';
import { readIdentity } from './identity.js';

describe('readIdentity', () => {
  it('takes the identity from the three variables', () => {
    expect(readIdentity({ CCCC_HOME: '/h', CCCC_GROUP_ID: 'g_1', CCCC_ACTOR_ID: 'peer1' })).toEqual({
      ok: true,
      identity: { home: '/h', groupId: 'g_1', actorId: 'peer1' },
    });
  });

  it('names every missing or blank variable', () => {
    const parsed = readIdentity({ CCCC_HOME: '/h', CCCC_GROUP_ID: '  ' });
    expect(parsed).toMatchObject({ ok: false, missing: ['CCCC_GROUP_ID', 'CCCC_ACTOR_ID'] });
    if (!parsed.ok) expect(parsed.message).toMatch(/missing CCCC_GROUP_ID, CCCC_ACTOR_ID/);
  });
});
