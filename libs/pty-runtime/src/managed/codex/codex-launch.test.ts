import { describe, expect, it } from 'vitest';
import { appServerArgv, attachedTuiArgv, planCodexLaunch } from './codex-launch.js';
import { INITIAL_CODEX_STATE, reduceCodexState } from './codex-state.js';

describe('planCodexLaunch', () => {
  it("splits the catalog's codex command: global config to both processes, policy to the thread only", () => {
    const plan = planCodexLaunch(['codex', '-c', 'shell_environment_policy.inherit=all', '--dangerously-bypass-approvals-and-sandbox', '--search']);
    expect(plan).toEqual({ executable: 'codex', globalArgs: ['-c', 'shell_environment_policy.inherit=all'], approvalPolicy: 'never', sandbox: 'danger-full-access', webSearch: true });
    expect(appServerArgv(plan, '/s/a.sock')).toEqual(['codex', '-c', 'shell_environment_policy.inherit=all', 'app-server', '--listen', 'unix:///s/a.sock']);
    expect(attachedTuiArgv(plan, '/s/a.sock', 't1')).toEqual(['codex', '-c', 'shell_environment_policy.inherit=all', 'resume', 't1', '--remote', 'unix:///s/a.sock']);
  });

  it('takes -a / -s / --model=x forms', () => {
    expect(planCodexLaunch(['/opt/bin/codex', '-a', 'on-request', '--sandbox=workspace-write', '--model=m1'])).toMatchObject({
      executable: '/opt/bin/codex',
      globalArgs: ['--model', 'm1'],
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
    });
  });

  it.each([
    [['npx', 'codex'], /runs codex directly/],
    [['codex', 'exec', 'hi'], /exec is not supported/],
    [['codex', 'write a poem'], /not supported/],
    [['codex', '-a', 'sometimes'], /unsupported approval policy/],
    [['codex', '-c'], /needs a value/],
  ])('%j fails explicitly', (argv, message) => {
    expect(() => planCodexLaunch(argv)).toThrow(message);
  });
});

describe('reduceCodexState', () => {
  const idle = { state: 'idle' as const, activeTurnId: null, reason: 'x' };
  it('follows thread status and turn events of its own thread only', () => {
    let s = reduceCodexState(idle, 't', 'turn/started', { threadId: 't', turn: { id: 'u1' } });
    expect(s).toMatchObject({ state: 'working', activeTurnId: 'u1' });
    s = reduceCodexState(s, 't', 'thread/status/changed', { threadId: 't', status: { type: 'active', activeFlags: ['waitingOnApproval'] } });
    expect(s).toMatchObject({ state: 'waiting', activeTurnId: 'u1', reason: 'app_server_thread_active' });
    expect(reduceCodexState(s, 't', 'turn/completed', { threadId: 'other', turn: { id: 'u1' } })).toBe(s);
    expect(reduceCodexState(s, 't', 'turn/completed', { threadId: 't', turn: { id: 'u0' } })).toBe(s);
    expect(reduceCodexState(s, 't', 'thread/status/changed', { threadId: 't', status: { type: 'notLoaded' } })).toBe(s);
    s = reduceCodexState(s, 't', 'turn/completed', { threadId: 't', turn: { id: 'u1' } });
    expect(s).toEqual({ state: 'idle', activeTurnId: null, reason: 'app_server_turn_completed' });
  });
  it('starts as starting', () => {
    expect(INITIAL_CODEX_STATE.state).toBe('starting');
  });
});
