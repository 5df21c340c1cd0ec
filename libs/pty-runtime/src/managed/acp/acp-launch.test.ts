import { describe, expect, it } from 'vitest';
import { ManagedLaunchError } from '../runtime-adapter.js';
import { chooseOption, permissionKindOf, permissionSummaryOf, turnStatusOf } from './acp-mapping.js';
import { compareVersions, KILO_FLAVOR, opencodeAcpLaunch, planOpencodeLaunch } from './opencode-launch.js';
import { isUserMessageOf } from './opencode-events.js';

describe('opencode managed launch plan', () => {
  it('takes the executable, an explicit model and the flags both processes share', () => {
    expect(planOpencodeLaunch(['/x/bin/opencode'])).toEqual({ executable: '/x/bin/opencode', shared: [], auto: false, tuiOnly: [] });
    expect(planOpencodeLaunch(['opencode', '--model', 'fake/m', '--pure', '--log-level=WARN', '--mini'])).toEqual({ executable: 'opencode', model: 'fake/m', shared: ['--pure', '--log-level', 'WARN'], auto: false, tuiOnly: ['--mini'] });
    // The catalog's default command runs managed: --auto becomes the one-time auto-allow policy.
    expect(planOpencodeLaunch(['opencode', '--auto']).auto).toBe(true);
    expect(opencodeAcpLaunch(planOpencodeLaunch(['opencode', '--auto']), '/w')).toMatchObject({ autoAllow: true, agentArgv: ['opencode', 'acp', '--port', '0', '--hostname', '127.0.0.1', '--cwd', '/w'] });
    expect(planOpencodeLaunch(['opencode', '-m', 'a/b']).model).toBe('a/b');
  });

  it('refuses other executables, subcommands, prompts and unknown flags explicitly', () => {
    for (const argv of [[], ['claude'], ['opencode', 'run', 'hi'], ['opencode', '--port', '1'], ['opencode', '--model']]) {
      expect(() => planOpencodeLaunch(argv)).toThrow(ManagedLaunchError);
    }
  });

  it('runs `opencode acp` on a loopback port 0 with a private password kept out of argv', () => {
    const launch = opencodeAcpLaunch(planOpencodeLaunch(['opencode', '--pure']), '/w');
    expect(launch.agentArgv).toEqual(['opencode', 'acp', '--port', '0', '--hostname', '127.0.0.1', '--cwd', '/w', '--pure']);
    expect(launch.agentEnv.OPENCODE_SERVER_PASSWORD).toMatch(/^[\w-]{32}$/);
    expect(launch.agentArgv.join(' ')).not.toContain(launch.agentEnv.OPENCODE_SERVER_PASSWORD!);
    // Two launches never share a password (generation-scoped backend).
    expect(opencodeAcpLaunch(planOpencodeLaunch(['opencode']), '/w').agentEnv.OPENCODE_SERVER_PASSWORD).not.toBe(launch.agentEnv.OPENCODE_SERVER_PASSWORD);
    // No backend found yet: no TUI to attach.
    expect(launch.terminal('ses_1', '/w')).toBeNull();
  });

  it('kilo: the same managed shape under its own executable and backend credentials (the real CLI: tools/src/real-clis/kilo-acp.test.ts)', () => {
    const plan = planOpencodeLaunch(['/x/kilo', '--model', 'k/m'], KILO_FLAVOR);
    expect(plan).toEqual({ executable: '/x/kilo', model: 'k/m', shared: [], auto: false, tuiOnly: [] });
    const launch = opencodeAcpLaunch(plan, '/w', KILO_FLAVOR);
    expect(launch).toMatchObject({ runtime: 'kilo', agentArgv: ['/x/kilo', 'acp', '--port', '0', '--hostname', '127.0.0.1', '--cwd', '/w'] });
    expect(launch.agentEnv).toMatchObject({ KILO_SERVER_USERNAME: 'kilo' });
    expect(launch.agentEnv.KILO_SERVER_PASSWORD).toMatch(/^[\w-]{32}$/);
    expect(launch.agentEnv.OPENCODE_SERVER_PASSWORD).toBeUndefined();
    expect(() => planOpencodeLaunch(['opencode'], KILO_FLAVOR)).toThrow(ManagedLaunchError);
    expect(() => planOpencodeLaunch(['kilo'])).toThrow(ManagedLaunchError);
  });

  it('compares versions numerically', () => {
    expect(compareVersions('1.18.33', '1.18.14')).toBeGreaterThan(0);
    expect(compareVersions('1.18.9', '1.18.14')).toBeLessThan(0);
    expect(compareVersions('1.18.14', '1.18.14')).toBe(0);
    expect(compareVersions('2.0.0', '1.99.99')).toBeGreaterThan(0);
  });
});

describe('ACP mapping', () => {
  const options = [
    { optionId: 'a1', kind: 'allow_always', name: 'Always' },
    { optionId: 'a0', kind: 'allow_once', name: 'Once' },
    { optionId: 'r0', kind: 'reject_once', name: 'Reject' },
  ] as const;

  it('grants or refuses exactly one operation when a once option exists', () => {
    expect(chooseOption(options, true)?.optionId).toBe('a0');
    expect(chooseOption(options, false)?.optionId).toBe('r0');
    expect(chooseOption([options[0]], true)?.optionId).toBe('a1');
    expect(chooseOption([options[0]], false)).toBeNull();
  });

  it('maps stop reasons and tool kinds', () => {
    expect(turnStatusOf('end_turn')).toBe('completed');
    expect(turnStatusOf('max_tokens')).toBe('completed');
    expect(turnStatusOf('cancelled')).toBe('interrupted');
    expect(turnStatusOf('refusal')).toBe('failed');
    const request = (kind: string, rawInput?: unknown) => ({ sessionId: 's', options: [...options], toolCall: { toolCallId: 't', kind, title: 'bash', rawInput } }) as never;
    expect(permissionKindOf(request('execute'))).toBe('command');
    expect(permissionKindOf(request('edit'))).toBe('file_change');
    expect(permissionKindOf(request('fetch'))).toBe('fetch');
    expect(permissionSummaryOf(request('execute', { command: 'ls', description: 'list' }))).toEqual({
      title: 'bash',
      tool_kind: 'execute',
      command: 'ls',
      input: { command: 'ls', description: 'list' },
      options: [
        { kind: 'allow_always', name: 'Always' },
        { kind: 'allow_once', name: 'Once' },
        { kind: 'reject_once', name: 'Reject' },
      ],
    });
  });
});

describe('opencode backend events', () => {
  it('a user message.updated of our session admits; others do not', () => {
    const ev = (role: string, sessionID: string, type = 'message.updated') => ({ type, properties: { sessionID, info: { role, sessionID } } });
    expect(isUserMessageOf(ev('user', 'ses_1'), 'ses_1')).toBe(true);
    expect(isUserMessageOf(ev('assistant', 'ses_1'), 'ses_1')).toBe(false);
    expect(isUserMessageOf(ev('user', 'ses_2'), 'ses_1')).toBe(false);
    expect(isUserMessageOf(ev('user', 'ses_1', 'message.part.updated'), 'ses_1')).toBe(false);
    expect(isUserMessageOf({ type: 'message.updated' }, 'ses_1')).toBe(false);
  });
});
