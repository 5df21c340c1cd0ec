import { describe, expect, it } from 'vitest';
import { codexMcpOverrides, mcpLaunchArgs, printMcpConfig, shellQuote, withMcpLaunchArgs } from './launch.js';

const server = { node: '/usr/bin/node', cliEntry: '/opt/my cccc/bin/cccc.js', env: { CCCC_HOME: '/h "q"', CCCC_GROUP_ID: 'g_1', CCCC_ACTOR_ID: 'peer1' } };

describe('mcpLaunchArgs', () => {
  it('claude gets one --mcp-config JSON document', () => {
    const [flag, json, ...rest] = mcpLaunchArgs('claude', server);
    expect(flag).toBe('--mcp-config');
    expect(rest).toEqual([]);
    expect(JSON.parse(json!).mcpServers.cccc).toEqual({ type: 'stdio', command: '/usr/bin/node', args: ['/opt/my cccc/bin/cccc.js', 'mcp'], env: server.env });
  });

  it('codex gets -c overrides whose values are valid TOML (spaces and quotes escaped)', () => {
    expect(codexMcpOverrides(server)).toEqual([
      'mcp_servers.cccc.command="/usr/bin/node"',
      'mcp_servers.cccc.args=["/opt/my cccc/bin/cccc.js", "mcp"]',
      'mcp_servers.cccc.env={ CCCC_HOME = "/h \\"q\\"", CCCC_GROUP_ID = "g_1", CCCC_ACTOR_ID = "peer1" }',
    ]);
    expect(mcpLaunchArgs('codex', server).filter((_, i) => i % 2 === 0)).toEqual(['-c', '-c', '-c']);
    expect(codexMcpOverrides({ ...server, env: {} })).toHaveLength(2);
  });

  it('other runtimes get nothing; wiring goes right after the executable', () => {
    expect(mcpLaunchArgs('custom', server)).toEqual([]);
    expect(withMcpLaunchArgs(['sh', '-c', 'x'], 'custom', server)).toEqual(['sh', '-c', 'x']);
    expect(withMcpLaunchArgs(['claude', '--resume'], 'claude', server).slice(0, 2)).toEqual(['claude', '--mcp-config']);
    expect(withMcpLaunchArgs(['claude', '--resume'], 'claude', server).at(-1)).toBe('--resume');
  });

  it('printMcpConfig: claude JSON, codex shell-quoted arguments', () => {
    expect(JSON.parse(printMcpConfig('claude', server))).toHaveProperty('mcpServers.cccc.args');
    const codex = printMcpConfig('codex', { ...server, cliEntry: "/it's/cli.js", env: {} });
    expect(codex).toBe(`-c 'mcp_servers.cccc.command="/usr/bin/node"' -c 'mcp_servers.cccc.args=["/it'\\''s/cli.js", "mcp"]'\n`);
    expect(shellQuote('plain/path.js')).toBe('plain/path.js');
  });
});
