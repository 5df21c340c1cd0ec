import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { agentViewHelpProblem, backgroundLaunch, parseClaudeVersion, planClaudeBackground, unsupportedCommand, workerVersionProblem } from './background-plan.js';
import { parseBackgroundedId } from './agent-view-cli.js';

const fakeAgent = fileURLToPath(new URL('../../../../../tools/fake-agent/fake-agent.mjs', import.meta.url));

describe('planClaudeBackground', () => {
  const argv = ['/opt/bin/claude', '--dangerously-skip-permissions', '--mcp-config', '{"mcpServers":{}}'];
  it('runs a bare claude of 2.1.259 or newer as a background session', () => {
    expect(planClaudeBackground({ enabled: true, argv, versionOutput: '2.1.328 (Claude Code)\n' })).toEqual({ mode: 'background', version: '2.1.328' });
    expect(planClaudeBackground({ enabled: true, argv, versionOutput: '2.1.259 (Claude Code)' }).mode).toBe('background');
  });
  it('falls back to the native PTY below the floor, naming the version and the floor', () => {
    const plan = planClaudeBackground({ enabled: true, argv, versionOutput: '2.1.258 (Claude Code)' });
    expect(plan).toMatchObject({ mode: 'native', code: 'claude_version_unsupported' });
    expect(plan.mode === 'native' && plan.diagnostic).toContain('2.1.258 is below 2.1.259');
  });
  it('falls back when the version cannot be read, when turned off, and for commands CCCC cannot own', () => {
    expect(planClaudeBackground({ enabled: true, argv, versionOutput: undefined })).toMatchObject({ mode: 'native', code: 'claude_version_unknown' });
    expect(planClaudeBackground({ enabled: true, argv, versionOutput: 'garbage' })).toMatchObject({ mode: 'native', code: 'claude_version_unknown' });
    expect(planClaudeBackground({ enabled: false, argv, versionOutput: '2.1.328' })).toMatchObject({ mode: 'native', code: 'claude_background_disabled' });
    expect(planClaudeBackground({ enabled: true, argv: ['claude', 'do this'], versionOutput: '2.1.328' })).toMatchObject({ mode: 'native', code: 'claude_command_unsupported' });
  });
  it('refuses the flags CCCC owns and prompts, but not flag values', () => {
    expect(unsupportedCommand(['claude', '--model', 'sonnet', '--effort', 'high'])).toBeNull();
    expect(unsupportedCommand(['claude', '--resume', 'x'])).toContain('--resume');
    expect(unsupportedCommand(['claude', '--name=foo'])).toContain('--name');
    expect(unsupportedCommand(['claude', '-p'])).toContain('-p');
    expect(unsupportedCommand(['claude', 'agents'])).toContain('prompt or subcommand');
    expect(unsupportedCommand(['codex'])).toContain('not claude');
  });
  it('reads versions and job ids as the pinned CLI prints them', () => {
    expect(parseClaudeVersion('2.1.328 (Claude Code)')).toBe('2.1.328');
    expect(parseBackgroundedId('backgrounded · a67d9a1f · cccc g/a (idle — send a prompt to start)\n')).toBe('a67d9a1f');
    expect(parseBackgroundedId('backgrounded · f4954836\n  claude agents  list sessions')).toBe('f4954836');
    expect(parseBackgroundedId('error: nope')).toBeUndefined();
  });
});

describe('backgroundLaunch', () => {
  const hooks = { UserPromptSubmit: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:4111/hook' }] }] };
  const argv = ['claude', '--dangerously-skip-permissions', '--settings', JSON.stringify({ model: 'x', env: { A: '1' }, hooks })];
  const env = { HOME: '/h', ANTHROPIC_API_KEY: 'sk-secret', CCCC_HOOK_LAUNCH_TOKEN: 'tok1' };
  it('moves the inline settings into the file with the launch environment, leaving only its path on the command line', () => {
    const bg = backgroundLaunch(argv, env, '/state/peer1.settings.json')!;
    expect(bg.args).toEqual(['--dangerously-skip-permissions', '--settings', '/state/peer1.settings.json']);
    expect(bg.args.join(' ')).not.toContain('sk-secret');
    expect(bg.settings).toEqual({ model: 'x', hooks, env: { A: '1', ...env } });
  });
  it('keeps the same identity across launches that differ only in launch token and hook wiring', () => {
    const a = backgroundLaunch(argv, env, '/p')!;
    const otherHooks = ['claude', '--dangerously-skip-permissions', '--settings', JSON.stringify({ model: 'x', env: { A: '1' }, hooks: { Stop: [] } })];
    const b = backgroundLaunch(otherHooks, { ...env, CCCC_HOOK_LAUNCH_TOKEN: 'tok2' }, '/p')!;
    expect(b.identity).toBe(a.identity);
    expect(backgroundLaunch(argv, { ...env, ANTHROPIC_API_KEY: 'other' }, '/p')!.identity).not.toBe(a.identity);
    expect(backgroundLaunch([...argv, '--model', 'opus'], env, '/p')!.identity).not.toBe(a.identity);
  });
  it('refuses settings that are not a JSON object', () => {
    expect(backgroundLaunch(['claude', '--settings', '[1]'], env, '/p')).toBeUndefined();
    expect(backgroundLaunch(['claude', '--settings', '{oops'], env, '/p')).toBeUndefined();
  });
});

describe('workerVersionProblem', () => {
  const expected = { sessionId: 'd2e15d88-deec-4419-b992-ff45e28513df', jobId: 'd2e15d88' };
  const record = (extra: object) => JSON.stringify({ pid: 11317, sessionId: expected.sessionId, jobId: expected.jobId, version: '2.1.328', ...extra });
  it('accepts the job worker at or above the floor, whatever the executable version, and fails closed otherwise', () => {
    expect(workerVersionProblem(record({}), expected)).toBeNull();
    expect(workerVersionProblem(record({ version: '2.1.259' }), expected)).toBeNull();
    expect(workerVersionProblem(record({ version: '2.1.200' }), expected)).toContain('2.1.200, below 2.1.259');
    expect(workerVersionProblem(record({ version: undefined }), expected)).toContain('no version');
    expect(workerVersionProblem(record({ sessionId: 'other' }), expected)).toContain('another session');
    expect(workerVersionProblem(record({ jobId: 'ffffffff' }), expected)).toContain('another session');
    expect(workerVersionProblem('{oops', expected)).toContain('not JSON');
    expect(workerVersionProblem(undefined, expected)).toContain('no session record');
  });
});

describe('agentViewHelpProblem', () => {
  const pinnedHelp = [
    'Options:',
    '  --agents <json-or-file>               JSON object defining custom agents',
    '  --bg, --background                    Start the session in the background and',
    'Commands:',
    '  agents [options]                      Manage background agents',
    '  attach <id|name>                      Open a background session in this',
  ].join('\n');
  it('accepts the pinned help, which lists --bg, attach and agents', () => {
    expect(agentViewHelpProblem(pinnedHelp)).toBeNull();
  });
  it('names what is missing; `--agents` is not the agents subcommand', () => {
    const noSub = agentViewHelpProblem('  --agents <json>  custom agents\n  --bg  background\n');
    expect(noSub).toMatchObject({ code: 'claude_agent_view_unavailable' });
    expect(noSub!.diagnostic).toContain('attach, agents');
    expect(agentViewHelpProblem(undefined)).toMatchObject({ code: 'claude_agent_view_unavailable' });
  });
  it("the project's fake agent help does not pass", () => {
    const r = spawnSync(process.execPath, [fakeAgent, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(agentViewHelpProblem(r.stdout)).not.toBeNull();
    const v = spawnSync(process.execPath, [fakeAgent, '--version'], { encoding: 'utf8' });
    expect(planClaudeBackground({ enabled: true, argv: ['claude'], versionOutput: v.stdout })).toMatchObject({ mode: 'native', code: 'claude_version_unsupported' });
  });
});
