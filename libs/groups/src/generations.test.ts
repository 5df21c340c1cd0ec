import { describe, expect, it } from 'vitest';
import { currentGenerations, isInGeneration } from './generations.js';

describe('actor generations', () => {
  const events = [
    { id: 'e0', kind: 'group.create', data: {} },
    { id: 'e1', kind: 'actor.add', ts: 't1', data: { actor: { id: 'a' } } },
    { id: 'e2', kind: 'chat.message', data: { to: ['a'] } },
    { id: 'e3', kind: 'actor.add', ts: 't3', data: { actor: { id: 'b' } } },
    { id: 'e4', kind: 'actor.remove', data: { actor_id: 'a' } },
    { id: 'e5', kind: 'chat.message', data: {} },
    { id: 'e6', kind: 'actor.add', ts: 't6', data: { actor: { id: 'a' } } },
    { id: 'e7', kind: 'actor.remove', data: { actor_id: 'b' } },
    { id: 'e8', kind: 'actor.add', data: { actor: {} } },
  ];

  it('the latest actor.add starts the generation; remove ends it', () => {
    const gens = currentGenerations(events);
    expect([...gens.keys()]).toEqual(['a']);
    expect(gens.get('a')).toEqual({ actor_id: 'a', add_event_id: 'e6', add_ts: 't6', add_index: 6 });
    expect(isInGeneration(gens.get('a'), 2)).toBe(false);
    expect(isInGeneration(gens.get('a'), 6)).toBe(false);
    expect(isInGeneration(gens.get('a'), 7)).toBe(true);
    expect(isInGeneration(gens.get('b'), 7)).toBe(false);
  });
});
