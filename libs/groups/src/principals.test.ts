import { describe, expect, it } from 'vitest';
import { assertKnownSender, foreignPrincipal, isKnownSender, isNonActorPrincipal, principalOf } from './principals.js';

const group = { actors: [{ id: 'lead' }, { id: 'peer1' }] };

describe('principals', () => {
  it.each([
    [undefined, 'user'],
    ['', 'user'],
    ['   ', 'user'],
    [' peer1 ', 'peer1'],
    ['svc:bridge', 'svc:bridge'],
  ])('principalOf(%j) → %j', (by, expected) => {
    expect(principalOf(by)).toBe(expected);
  });

  it('principalOf takes the op default for a blank by', () => {
    expect(principalOf(' ', 'system')).toBe('system');
    expect(principalOf('peer1', 'system')).toBe('peer1');
  });

  it('the user, the system and services are not actors; anyone else must be one of the group', () => {
    expect(['user', 'system', 'svc:im'].map(isNonActorPrincipal)).toEqual([true, true, true]);
    expect(['peer1', 'svc', 'users', ''].map(isNonActorPrincipal)).toEqual([false, false, false, false]);
    expect(['user', 'system', 'svc:im', 'lead', 'peer1'].every((by) => isKnownSender(group, by))).toBe(true);
    expect(isKnownSender(group, 'ghost')).toBe(false);
    expect(() => assertKnownSender(group, 'peer1')).not.toThrow();
    expect(() => assertKnownSender(group, 'ghost')).toThrowError(expect.objectContaining({ code: 'permission_denied', details: { by: 'ghost' } }));
  });

  it('an actor sending to another group is qualified by its own group there', () => {
    expect(foreignPrincipal('peer1', 'g_src')).toBe('peer1@g_src');
    expect(foreignPrincipal('user', 'g_src')).toBe('user');
    expect(foreignPrincipal('system', 'g_src')).toBe('system');
    expect(foreignPrincipal('svc:im', 'g_src')).toBe('svc:im');
  });
});
