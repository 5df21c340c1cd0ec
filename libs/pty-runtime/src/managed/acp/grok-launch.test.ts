import { describe, expect, it } from 'vitest';
import { ManagedLaunchError } from '../runtime-adapter.js';
import { GROK_INITIALIZE_META, GROK_SESSION_META, grokAcpLaunch, grokTuiArgs, planGrokLaunch } from './grok-launch.js';

describe('Grok managed launch plan (§8.4, untested on the real binary)', () => {
  it('the catalog command: --always-approve becomes the agent policy and one-time auto-allow', () => {
    const plan = planGrokLaunch(['/x/grok', '--always-approve', '--model', 'grok-4']);
    expect(plan).toEqual({ executable: '/x/grok', model: 'grok-4', alwaysApprove: true, trust: false, shared: [] });
    expect(grokAcpLaunch(plan)).toMatchObject({ runtime: 'grok', agentArgv: ['/x/grok', 'agent', '--always-approve'], autoAllow: true, model: 'grok-4' });
  });

  it('binds the _meta echo opt-in on initialize and on new/load sessions', () => {
    const launch = grokAcpLaunch(planGrokLaunch(['grok']));
    expect(launch.initializeMeta).toEqual({ 'x.ai/userMessageEcho': true });
    expect(launch.sessionMeta).toEqual({ clientUserMessageEcho: true });
    expect(launch.grokCorrelation).toBe(true);
    expect(GROK_INITIALIZE_META).toBe(launch.initializeMeta);
    expect(GROK_SESSION_META).toBe(launch.sessionMeta);
  });

  it('--trust goes only to the native TUI, never the agent, and is never added by default', () => {
    const plan = planGrokLaunch(['grok', '--trust']);
    expect(grokAcpLaunch(plan).agentArgv).toEqual(['grok', 'agent']);
    expect(grokTuiArgs(plan)).toEqual(['--trust']);
    expect(grokTuiArgs(planGrokLaunch(['grok']))).toEqual([]);
  });

  it('refuses other executables, subcommands, session selection and prompts explicitly', () => {
    for (const argv of [[], ['claude'], ['grok', 'leader'], ['grok', 'agent'], ['grok', '--resume', 'x'], ['grok', '--session-id=x'], ['grok', '-c'], ['grok', 'do it'], ['grok', '--model']]) {
      expect(() => planGrokLaunch(argv), argv.join(' ')).toThrow(ManagedLaunchError);
    }
  });
});
