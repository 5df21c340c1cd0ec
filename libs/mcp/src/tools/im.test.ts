import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { DaemonRequestV1, DaemonResponseV1 } from '@cccc/ipc-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE_TOOLS, visibleTools } from '../catalog.js';
import type { DaemonPort } from '../daemon-port.js';
import { createMcpServer } from '../server.js';

// cccc_im_bind: no action selector, maps directly onto im_bind_chat (spec §8.6), exposed by
// pack:file-im. The real op and its permission rule are tested in apps/daemon's ops/im.test.ts.

class ScriptedDaemon implements DaemonPort {
  readonly requests: DaemonRequestV1[] = [];
  constructor(private readonly visible: string[], private readonly bind: () => DaemonResponseV1) {}
  async request(request: DaemonRequestV1): Promise<DaemonResponseV1> {
    this.requests.push(request);
    if (request.op === 'capability_state') return { v: 1, ok: true, result: { visible_tools: this.visible, dynamic_tools: [] } } as DaemonResponseV1;
    if (request.op === 'im_bind_chat') return this.bind();
    return { v: 1, ok: false, error: { code: 'unknown_op', message: request.op } } as DaemonResponseV1;
  }
}

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect(daemon: DaemonPort): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ identity: { home: '/h', groupId: 'g_1', actorId: 'lead' }, daemon }).connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  clients.push(client);
  return client;
}

const base = BASE_TOOLS.filter((t) => !t.onlyFor).map((t) => t.name);
const bound = { v: 1, ok: true, result: { chat_id: 'C1', thread_id: '1710000000.100', platform: 'slack' } } as DaemonResponseV1;

describe('cccc_im_bind', () => {
  it('is a pack tool: listed only when pack:file-im is enabled, not in any role default', async () => {
    expect(visibleTools('foreman').map((t) => t.name)).not.toContain('cccc_im_bind');
    const without = await connect(new ScriptedDaemon(base, () => bound));
    expect((await without.listTools()).tools.map((t) => t.name)).not.toContain('cccc_im_bind');
    const refused = await without.callTool({ name: 'cccc_im_bind', arguments: { key: 'k' } });
    expect(refused.structuredContent).toMatchObject({ error: { code: 'permission_denied' } });
  });

  it('maps {key} straight onto im_bind_chat as the caller and returns its result verbatim', async () => {
    const daemon = new ScriptedDaemon([...base, 'cccc_im_bind'], () => bound);
    const client = await connect(daemon);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'cccc_im_bind');
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['key']); // no action selector
    const res = await client.callTool({ name: 'cccc_im_bind', arguments: { key: 'Xq3v_9aBcDe' } });
    expect(res.structuredContent).toEqual({ chat_id: 'C1', thread_id: '1710000000.100', platform: 'slack' });
    expect(daemon.requests.at(-1)).toEqual({ v: 1, op: 'im_bind_chat', args: { group_id: 'g_1', by: 'lead', key: 'Xq3v_9aBcDe' } });
  });

  it('keeps the daemon refusal code (invalid_key) and refuses a caller-supplied group_id', async () => {
    const daemon = new ScriptedDaemon([...base, 'cccc_im_bind'], () => ({ v: 1, ok: false, error: { code: 'invalid_key', message: 'key not found or expired' } }) as DaemonResponseV1);
    const client = await connect(daemon);
    expect((await client.callTool({ name: 'cccc_im_bind', arguments: { key: 'nope' } })).structuredContent).toMatchObject({ error: { code: 'invalid_key' } });
    const before = daemon.requests.filter((r) => r.op === 'im_bind_chat').length;
    const spoof = await client.callTool({ name: 'cccc_im_bind', arguments: { key: 'k', group_id: 'g_other' } });
    expect(spoof.structuredContent).toMatchObject({ error: {} });
    expect(daemon.requests.filter((r) => r.op === 'im_bind_chat').length).toBe(before);
  });
});
