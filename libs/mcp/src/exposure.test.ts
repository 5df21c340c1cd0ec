import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DaemonRequestV1, DaemonResponseV1 } from '@cccc/ipc-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TOOLS, BASE_TOOLS } from './catalog.js';
import type { DaemonPort } from './daemon-port.js';
import { createMcpServer } from './server.js';

// The tools listed follow the daemon's capability_state (view mcp_catalog); a scripted daemon
// stands in here, the real one is driven in apps/cli's mcp-capabilities e2e test.

class ScriptedDaemon implements DaemonPort {
  readonly requests: DaemonRequestV1[] = [];
  visible: string[] = BASE_TOOLS.map((t) => t.name);
  dynamic: Array<Record<string, unknown>> = [];
  async request(request: DaemonRequestV1): Promise<DaemonResponseV1> {
    this.requests.push(request);
    if (request.op === 'capability_state') {
      return { v: 1, ok: true, result: { visible_tools: [...this.visible, ...this.dynamic.map((t) => t.name as string)], dynamic_tools: this.dynamic } } as DaemonResponseV1;
    }
    if (request.op === 'capability_tool_call') {
      return { v: 1, ok: true, result: { tool_name: request.args?.tool_name, capability_id: 'mcp:x', result: { content: [{ type: 'text', text: 'echoed' }] } } } as DaemonResponseV1;
    }
    if (request.op === 'terminal_tail') return { v: 1, ok: true, result: { actor_id: 'peer1', text: '' } } as DaemonResponseV1;
    return { v: 1, ok: false, error: { code: 'unknown_op', message: request.op } } as DaemonResponseV1;
  }
}

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect(daemon: DaemonPort): Promise<{ client: Client; changes: () => number }> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ identity: { home: '/h', groupId: 'g_1', actorId: 'peer1' }, daemon, toolsPollMs: 20 }).connect(a);
  const client = new Client({ name: 't', version: '1' });
  let n = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    n += 1;
  });
  await client.connect(b);
  clients.push(client);
  return { client, changes: () => n };
}

const until = async (probe: () => boolean) => {
  for (let i = 0; i < 200 && !probe(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(probe()).toBe(true);
};

describe('tool exposure from capability_state', () => {
  it('lists what the daemon says, refuses pack tools not enabled, and tells the client to relist on a change', async () => {
    const daemon = new ScriptedDaemon();
    const { client, changes } = await connect(daemon);
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    expect(await names()).toEqual(BASE_TOOLS.filter((t) => !t.onlyFor).map((t) => t.name)); // the voice-secretary's tools only for it
    expect(daemon.requests.find((r) => r.op === 'capability_state')?.args).toEqual({ group_id: 'g_1', actor_id: 'peer1', by: 'peer1', view: 'mcp_catalog' });
    const refused = await client.callTool({ name: 'cccc_terminal', arguments: {} });
    expect(refused.structuredContent).toMatchObject({ error: { code: 'permission_denied', details: { capability_id: 'pack:diagnostics' } } });

    daemon.visible = [...daemon.visible, 'cccc_terminal'];
    daemon.dynamic = [{ name: 'cccc_ext_0123abcd_echo', description: 'Echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } }, capability_id: 'mcp:x', real_tool_name: 'echo' }];
    await until(() => changes() === 1);
    expect(await names()).toEqual([...ALL_TOOLS.filter((t) => (!t.pack || t.name === 'cccc_terminal') && !t.onlyFor).map((t) => t.name), 'cccc_ext_0123abcd_echo']);
    const echoed = await client.callTool({ name: 'cccc_ext_0123abcd_echo', arguments: { message: 'hi' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'echoed' }]);
    expect(daemon.requests.find((r) => r.op === 'capability_tool_call')?.args).toEqual({ group_id: 'g_1', actor_id: 'peer1', by: 'peer1', tool_name: 'cccc_ext_0123abcd_echo', arguments: { message: 'hi' } });

    daemon.visible = BASE_TOOLS.map((t) => t.name);
    daemon.dynamic = [];
    await until(() => changes() === 2);
    expect(await names()).not.toContain('cccc_terminal');
    expect((await client.callTool({ name: 'cccc_ext_0123abcd_echo', arguments: {} })).structuredContent).toMatchObject({ error: { code: 'unknown_tool' } });
  });
});
