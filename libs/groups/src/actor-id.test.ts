import { describe, expect, it } from 'vitest';
import { actorIdProblem, assertValidActorId, nextAutoActorId } from './actor-id.js';

describe('actor ids', () => {
  it.each(['peer1', 'a', 'Claude-2', 'x_y', '前端', 'エージェント1', 'a'.repeat(32), '9lives', 'café'])('accepts %s', (id) => {
    expect(actorIdProblem(id)).toBeUndefined();
  });

  it.each([
    '',
    'a'.repeat(33),
    '-lead',
    '_lead',
    'has space',
    'dot.ted',
    'at@sign',
    'sla/sh',
    'back\\slash',
    'user',
    'USER',
    '@user',
    'All',
    'system',
    'foreman',
    'Peers',
    'admin',
    'root',
    'cccc',
    '@cccc',
    'tab\t',
    'emoji😀',
  ])('rejects %j with invalid_actor_id', (id) => {
    expect(actorIdProblem(id)).toBeDefined();
    expect(() => assertValidActorId(id)).toThrowError(expect.objectContaining({ code: 'invalid_actor_id' }));
  });

  it('counts characters, not UTF-16 units', () => {
    expect(actorIdProblem('前'.repeat(32))).toBeUndefined();
    expect(actorIdProblem('前'.repeat(33))).toBeDefined();
  });

  it('auto ids are <runtime>-N, skipping taken ones', () => {
    expect(nextAutoActorId('claude', [])).toBe('claude-1');
    expect(nextAutoActorId('claude', ['claude-1', 'Claude-2'])).toBe('claude-3');
    expect(nextAutoActorId('Open Code', [])).toBe('open-code-1');
    expect(nextAutoActorId('', [])).toBe('actor-1');
    expect(actorIdProblem(nextAutoActorId('x'.repeat(40), []))).toBeUndefined();
  });
});
