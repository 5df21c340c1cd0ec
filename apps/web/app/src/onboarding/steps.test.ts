import { describe, expect, it } from 'vitest';
import { installedFirst } from '../api/runtimes';
import { currentStep, onboardingSteps } from './steps';

const rt = (runtime: string, installed: boolean) => ({ runtime, installed, transport: 'pty' as const, command: runtime === 'custom' ? [] : [runtime] });

describe('onboarding', () => {
  it('walks attach → agent → start, each done from what the group shows', () => {
    expect(currentStep(onboardingSteps({ scopes: 0, actors: 0, running: 0 }))).toBe('attach');
    expect(currentStep(onboardingSteps({ scopes: 1, actors: 0, running: 0 }))).toBe('agent');
    expect(currentStep(onboardingSteps({ scopes: 1, actors: 2, running: 0 }))).toBe('start');
    expect(currentStep(onboardingSteps({ scopes: 1, actors: 2, running: 1 }))).toBeNull();
    expect(onboardingSteps({ scopes: 0, actors: 1, running: 0 }).map((s) => s.done)).toEqual([false, true, false]);
  });

  it('offers the runtimes installed on this machine first, custom last', () => {
    const list = [rt('claude', false), rt('codex', true), rt('custom', true), rt('opencode', true), rt('kimi', false)];
    expect(installedFirst(list).map((r) => r.runtime)).toEqual(['codex', 'opencode', 'claude', 'kimi', 'custom']);
  });
});
