import { describe, expect, it } from 'vitest';
import { composeLaunch, type LaunchBase } from '@cccc/pty-runtime';
import { mcpLaunchContributor } from './mcp-contributor.js';

const launcher = { node: '/usr/bin/node', cliEntry: '/opt/cccc/bin/cccc.js' };
const base = (runtime: string, command?: string[]): LaunchBase => ({
  runtime,
  ...(command ? { command } : {}),
  cwd: '/work/repo',
  daemonEnv: {},
  actorEnv: { CCCC_ACTOR_ID: 'someone-else' },
  home: '/h',
  groupId: 'g_1',
  actorId: 'peer1',
});

describe('mcpLaunchContributor', () => {
  const mcp = mcpLaunchContributor(launcher);

  it('claude: one --mcp-config right after the executable, identity from the launch', () => {
    const cmd = composeLaunch(base('claude', ['claude', '--model', 'x']), [mcp]);
    expect(cmd.argv[0]).toBe('claude');
    expect(cmd.argv[1]).toBe('--mcp-config');
    expect(cmd.argv.slice(3)).toEqual(['--model', 'x']);
    expect(JSON.parse(cmd.argv[2]!)).toEqual({
      mcpServers: {
        cccc: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/cccc/bin/cccc.js', 'mcp'], env: { CCCC_HOME: '/h', CCCC_GROUP_ID: 'g_1', CCCC_ACTOR_ID: 'peer1' } },
      },
    });
  });

  it('codex: -c overrides for command, args and env (TOML values), before any subcommand', () => {
    const cmd = composeLaunch(base('codex', ['codex', 'resume']), [mcp]);
    expect(cmd.argv).toEqual([
      'codex',
      '-c',
      'mcp_servers.cccc.command="/usr/bin/node"',
      '-c',
      'mcp_servers.cccc.args=["/opt/cccc/bin/cccc.js", "mcp"]',
      '-c',
      'mcp_servers.cccc.env={ CCCC_HOME = "/h", CCCC_GROUP_ID = "g_1", CCCC_ACTOR_ID = "peer1" }',
      'resume',
    ]);
  });

  it('leaves other runtimes and env untouched', () => {
    const plain = composeLaunch(base('custom', ['sh']));
    const wired = composeLaunch(base('custom', ['sh']), [mcp]);
    expect(wired).toEqual(plain);
    expect(composeLaunch(base('claude', ['claude']), [mcp]).env).toEqual(composeLaunch(base('claude', ['claude'])).env);
  });

});
