import { describe, expect, it } from 'vitest';
import { ManagedLaunchError } from '../runtime-adapter.js';
import { antigravityProviderHome, headlessAcpLaunch, planHeadlessAcpLaunch } from './headless-acp-launch.js';

// §8.4 pure headless ACP launch plans (the real CLIs are not installable here: spec-derived).

const mcp = [{ name: 'cccc', command: '/usr/bin/node', args: ['/opt/cccc.js', 'mcp'], env: { CCCC_HOME: '/h', CCCC_GROUP_ID: 'g1', CCCC_ACTOR_ID: 'a1' } }];
const context = { mcpServers: mcp, ccccHome: '/h' };
const refused = (runtime: string, argv: string[]) => {
  try {
    planHeadlessAcpLaunch(runtime, argv);
  } catch (error) {
    return error instanceof ManagedLaunchError ? error.code : 'other';
  }
  return 'planned';
};

describe('headless ACP launch plans', () => {
  it('copilot: --acp, the MCP server process-scoped in argv (not per session), --allow-all is unrestricted', () => {
    const plan = planHeadlessAcpLaunch('copilot', ['/usr/bin/copilot', '--allow-all', '--model', 'gpt-5']);
    expect(plan).toMatchObject({ runtime: 'copilot', model: 'gpt-5', unrestricted: true, args: ['--acp', '--allow-all'] });
    const { launch, sessionMcp } = headlessAcpLaunch(plan, context);
    expect(sessionMcp).toBe(false);
    expect(launch.agentArgv.slice(0, 3)).toEqual(['/usr/bin/copilot', '--acp', '--allow-all']);
    const config = JSON.parse(launch.agentArgv[launch.agentArgv.indexOf('--additional-mcp-config') + 1]!) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers.cccc).toMatchObject({ command: '/usr/bin/node', args: ['/opt/cccc.js', 'mcp'], env: { CCCC_ACTOR_ID: 'a1' } });
    expect(launch).toMatchObject({ model: 'gpt-5', autoAllow: true, agentEnv: {} });
    expect(launch.terminal('s', '/w')).toBeNull();
    // Without the unrestricted flag, permissions are a person's decision.
    expect(headlessAcpLaunch(planHeadlessAcpLaunch('copilot', ['copilot']), context).launch.autoAllow).toBe(false);
  });

  it('devin and cursor: their acp subcommand, MCP per session; the permission policy from the command', () => {
    const devin = headlessAcpLaunch(planHeadlessAcpLaunch('devin', ['devin', '--permission-mode', 'dangerous']), context);
    expect(devin).toMatchObject({ sessionMcp: true, launch: { agentArgv: ['devin', 'acp', '--permission-mode', 'dangerous'], autoAllow: true } });
    expect(planHeadlessAcpLaunch('devin', ['devin', '--permission-mode=ask']).unrestricted).toBe(false);
    const cursor = headlessAcpLaunch(planHeadlessAcpLaunch('cursor', ['cursor-agent', '--yolo', '--approve-mcps']), context);
    expect(cursor).toMatchObject({ sessionMcp: true, launch: { agentArgv: ['cursor-agent', 'acp', '--yolo', '--approve-mcps'], autoAllow: true } });
    expect(cursor.launch.agentArgv).not.toContain('--additional-mcp-config');
  });

  it('antigravity: --acp with HOME at its CCCC-owned provider home; the YOLO default auto-allows once', () => {
    const { launch, sessionMcp } = headlessAcpLaunch(planHeadlessAcpLaunch('antigravity', ['agy', '--dangerously-skip-permissions']), context);
    expect(sessionMcp).toBe(true);
    expect(launch).toMatchObject({ agentArgv: ['agy', '--acp', '--dangerously-skip-permissions'], autoAllow: true, agentEnv: { HOME: antigravityProviderHome('/h') } });
    expect(antigravityProviderHome('/h')).toBe('/h/runtimes/antigravity/home');
  });

  it('refuses what it cannot run headless: other executables, other runtimes, unknown flags, missing values', () => {
    expect(refused('copilot', ['claude'])).toBe('unsupported_command');
    expect(refused('copilot', [])).toBe('unsupported_command');
    expect(refused('opencode', ['opencode'])).toBe('unsupported_command');
    expect(refused('cursor', ['cursor-agent', '--resume', 'x'])).toBe('unsupported_command');
    expect(refused('copilot', ['copilot', '--model'])).toBe('unsupported_command');
    // An explicit ACP flag in the command is not doubled.
    expect(planHeadlessAcpLaunch('copilot', ['copilot', '--acp']).args).toEqual(['--acp']);
  });
});
