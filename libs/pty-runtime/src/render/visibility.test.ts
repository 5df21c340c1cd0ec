import { describe, expect, it } from 'vitest';
import { canReadTranscript } from './visibility.js';

describe('canReadTranscript', () => {
  const user = { kind: 'user' } as const;
  const foreman = { kind: 'actor', actorId: 'lead', role: 'foreman' } as const;
  const peer = { kind: 'actor', actorId: 'p1', role: 'peer' } as const;
  it.each([
    ['off', user, 'p2', true],
    ['off', foreman, 'p2', false],
    ['off', peer, 'p1', true],
    ['foreman', foreman, 'p2', true],
    ['foreman', peer, 'p2', false],
    ['all', peer, 'lead', true],
  ] as const)('%s: %o reading %s → %s', (visibility, viewer, target, expected) => {
    expect(canReadTranscript(viewer, target, visibility)).toBe(expected);
  });
});
