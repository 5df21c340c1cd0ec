import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, until, useDaemonHome } from './e2e-harness.js';

// Issue 21's end-to-end case: an actor's real `cccc mcp` session (MCP SDK client over stdio, real
// daemon) sees a pack's tools appear after capability_enable and go after capability_block, and
// calls a tool of an MCP server installed from the npm registry through capability_tool_call.

const cli = useDaemonHome();
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
});

async function mcpAs(group_id: string, actor: string): Promise<{ client: Client; relists: () => number }> {
  const { CCCC_ACTOR_ID: _drop, ...env } = process.env as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { ...env, CCCC_HOME: cli.home(), CCCC_GROUP_ID: group_id, CCCC_ACTOR_ID: actor, CCCC_MCP_TOOLS_POLL_MS: '200' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mcp-caps-e2e', version: '1.0.0' });
  let relists = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    relists += 1;
  });
  await client.connect(transport);
  clients.push(client);
  return { client, relists: () => relists };
}

async function team(): Promise<{ group_id: string; daemon: DaemonClient }> {
  const daemon = new DaemonClient({ home: cli.home(), timeoutMs: 180_000 });
  const { group_id } = await daemon.call('group_create', { title: 'caps', by: 'user' });
  for (const actor_id of ['lead', 'peer1']) await daemon.call('actor_add', { group_id, actor_id, runtime: 'custom', command: ['sh'], by: 'user' });
  return { group_id, daemon };
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);

describe('cccc mcp follows capabilities (real process, real daemon)', () => {
  it('a pack appears after capability_enable and goes after capability_block, with list_changed each time', async () => {
    const { group_id, daemon } = await team();
    const { client: peer, relists } = await mcpAs(group_id, 'peer1');
    expect(await names(peer)).not.toContain('cccc_terminal');
    const refused = (await peer.callTool({ name: 'cccc_terminal', arguments: {} })) as { structuredContent?: any };
    expect(refused.structuredContent.error).toMatchObject({ code: 'permission_denied', details: { capability_id: 'pack:diagnostics' } });

    await daemon.call('capability_enable', { group_id, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'peer1', by: 'user' });
    await until(() => relists() >= 1, 'tools/list_changed after enable', 20_000);
    expect(await names(peer)).toContain('cccc_terminal');

    await daemon.call('capability_block', { group_id, capability_id: 'pack:diagnostics', by: 'lead' });
    await until(() => relists() >= 2, 'tools/list_changed after block', 20_000);
    expect(await names(peer)).not.toContain('cccc_terminal');
  });

  it('an agent enables a pack for itself with cccc_capability_enable and reads it back', async () => {
    const { group_id } = await team();
    const { client: peer, relists } = await mcpAs(group_id, 'peer1');
    expect(await names(peer)).not.toContain('cccc_terminal');
    const found = (await peer.callTool({ name: 'cccc_capability_search', arguments: { query: 'terminal', include_external: false } })) as { structuredContent?: any };
    expect(found.structuredContent.items.map((i: { capability_id: string }) => i.capability_id)).toEqual(['pack:diagnostics']);
    const group = (await peer.callTool({ name: 'cccc_capability_enable', arguments: { capability_id: 'pack:diagnostics', scope: 'group' } })) as { structuredContent?: any };
    expect(group.structuredContent.error.code).toBe('permission_denied');
    const on = (await peer.callTool({ name: 'cccc_capability_enable', arguments: { capability_id: 'pack:diagnostics' } })) as { structuredContent?: any };
    expect(on.structuredContent).toMatchObject({ actor_id: 'peer1', scope: 'actor', state: 'activation_pending' });
    await until(() => relists() >= 1, 'tools/list_changed after self-enable', 20_000);
    expect(await names(peer)).toContain('cccc_terminal');
    const state = (await peer.callTool({ name: 'cccc_capability_state', arguments: {} })) as { structuredContent?: any };
    expect(state.structuredContent.enabled_capabilities).toEqual(['pack:diagnostics']);
  });

  it('an MCP server from the npm registry: enabled, listed as a dynamic tool, called through capability_tool_call', async () => {
    const { group_id, daemon } = await team();
    const { client: peer, relists } = await mcpAs(group_id, 'peer1');
    const before = await names(peer);
    const on = await daemon.call('capability_enable', {
      group_id,
      capability_id: 'mcp:npm:@modelcontextprotocol/server-everything',
      scope: 'actor',
      actor_id: 'peer1',
      by: 'user',
    });
    expect(on, JSON.stringify(on)).toMatchObject({ enabled: true, install_state: 'installed', state: 'activation_pending' });
    await until(() => relists() >= 1, 'tools/list_changed after install', 20_000);
    const tools = (await peer.listTools()).tools;
    const echo = tools.find((t) => /^cccc_ext_[0-9a-f]{8}_echo$/.test(t.name));
    expect(echo, JSON.stringify(tools.map((t) => t.name))).toBeDefined();
    expect(tools.length).toBeGreaterThan(before.length);
    const called = (await peer.callTool({ name: echo!.name, arguments: { message: 'through cccc' } })) as { content: Array<{ type: string; text: string }> };
    expect(called.content[0]!.text).toContain('through cccc');

    const un = await daemon.call('capability_uninstall', { group_id, capability_id: 'mcp:npm:@modelcontextprotocol/server-everything', by: 'user' });
    expect(un).toMatchObject({ removed_installation: true });
    await until(() => relists() >= 2, 'tools/list_changed after uninstall', 20_000);
    expect(await names(peer)).toEqual(before);
  });
});
