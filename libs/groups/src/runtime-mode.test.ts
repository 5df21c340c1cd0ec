import { describe, expect, it } from 'vitest';
import { applyActorPatch, buildActor } from './actors.js';
import { patchedRuntimeMode, supportsRuntimeMode } from './runtime-mode.js';

const NOW = '2026-01-01T00:00:00.000Z';

describe('runtime_mode (§8.4)', () => {
  it('acp exists only for antigravity, copilot, devin and cursor; default for every runtime', () => {
    for (const runtime of ['antigravity', 'copilot', 'devin', 'cursor']) expect(supportsRuntimeMode(runtime, 'acp')).toBe(true);
    for (const runtime of ['claude', 'codex', 'opencode', 'kilo', 'grok', 'custom']) {
      expect(supportsRuntimeMode(runtime, 'acp')).toBe(false);
      expect(supportsRuntimeMode(runtime, 'default')).toBe(true);
    }
  });

  it('actor_add stores a supported mode and rejects other pairs with invalid_request', () => {
    expect(buildActor({ actor_id: 'a1', runtime: 'cursor', runtime_mode: 'acp' }, [], NOW).runtime_mode).toBe('acp');
    expect(buildActor({ actor_id: 'a1', runtime: 'claude', runtime_mode: 'default' }, [], NOW).runtime_mode).toBe('default');
    expect(buildActor({ actor_id: 'a1', runtime: 'claude' }, [], NOW).runtime_mode).toBeUndefined();
    expect(() => buildActor({ actor_id: 'a1', runtime: 'opencode', runtime_mode: 'acp' }, [], NOW)).toThrow(expect.objectContaining({ code: 'invalid_request', details: expect.objectContaining({ field: 'runtime_mode' }) }));
    expect(() => buildActor({ actor_id: 'a1', runtime: 'cursor', runtime_mode: 'turbo' as never }, [], NOW)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('actor_update: same runtime without a mode preserves it; a runtime change without a mode resets to default; explicit modes are checked against the resulting runtime', () => {
    const acp = buildActor({ actor_id: 'a1', runtime: 'copilot', runtime_mode: 'acp' }, [], NOW);
    expect(applyActorPatch(acp, { runtime: 'copilot' }, NOW).actor.runtime_mode).toBe('acp');
    expect(applyActorPatch(acp, { title: 'x' }, NOW).actor.runtime_mode).toBe('acp');
    const changed = applyActorPatch(acp, { runtime: 'claude' }, NOW);
    expect(changed.actor.runtime_mode).toBe('default');
    expect(changed.patch).toMatchObject({ runtime: 'claude', runtime_mode: 'default' });
    expect(applyActorPatch(acp, { runtime: 'devin', runtime_mode: 'acp' }, NOW).actor).toMatchObject({ runtime: 'devin', runtime_mode: 'acp' });
    expect(applyActorPatch(acp, { runtime_mode: 'default' }, NOW).actor.runtime_mode).toBe('default');
    expect(() => applyActorPatch(acp, { runtime: 'claude', runtime_mode: 'acp' }, NOW)).toThrow(expect.objectContaining({ code: 'invalid_patch', details: expect.objectContaining({ field: 'runtime_mode' }) }));
    const claude = buildActor({ actor_id: 'a2', runtime: 'claude' }, [], NOW);
    expect(() => applyActorPatch(claude, { runtime_mode: 'acp' }, NOW)).toThrow(expect.objectContaining({ code: 'invalid_patch' }));
    expect(() => applyActorPatch(claude, { runtime_mode: 42 }, NOW)).toThrow(expect.objectContaining({ code: 'invalid_patch' }));
    // A runtime change of an actor that never had a mode leaves it unset (it is default already).
    expect(patchedRuntimeMode({ runtime: 'claude' }, { runtime: 'codex' })).toBeUndefined();
  });
});
