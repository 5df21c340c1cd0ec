import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { DaemonRequestV1, DaemonResponseV1 } from '@cccc/ipc-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE_TOOLS } from '../catalog.js';
import type { DaemonPort } from '../daemon-port.js';
import { createMcpServer } from '../server.js';

// The Voice Secretary's MCP tools: visible to and callable by the voice-secretary actor only,
// mapped onto the assistant_* ops with the secretary as the caller.

class FakeDaemon implements DaemonPort {
  readonly requests: DaemonRequestV1[] = [];
  constructor(private readonly answers: Record<string, (args: Record<string, unknown>) => DaemonResponseV1>) {}
  async request(request: DaemonRequestV1): Promise<DaemonResponseV1> {
    this.requests.push(request);
    return this.answers[request.op]?.(request.args ?? {}) ?? ({ v: 1, ok: false, error: { code: 'unknown_op', message: request.op } } as unknown as DaemonResponseV1);
  }
}
const ok = (result: Record<string, unknown>): DaemonResponseV1 => ({ v: 1, ok: true, result });
const VOICE_TOOLS = ['cccc_voice_secretary_document', 'cccc_voice_secretary_request', 'cccc_voice_secretary_composer'];
const open: Client[] = [];

async function connectAs(actorId: string, daemon: DaemonPort): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ identity: { home: '/h', groupId: 'g_1', actorId }, daemon, toolsPollMs: 0 }).connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  open.push(client);
  return client;
}
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

const state = () => ok({ visible_tools: BASE_TOOLS.map((t) => t.name), dynamic_tools: [] });

describe('Voice Secretary MCP tools', () => {
  it('only voice-secretary lists or calls them', async () => {
    const daemon = new FakeDaemon({ capability_state: state });
    const peer = await connectAs('peer1', daemon);
    expect((await peer.listTools()).tools.map((t) => t.name).filter((n) => VOICE_TOOLS.includes(n))).toEqual([]);
    const before = daemon.requests.length;
    const denied = await peer.callTool({ name: 'cccc_voice_secretary_document', arguments: { action: 'read_new_input' } });
    expect(denied.structuredContent).toMatchObject({ error: { code: 'permission_denied' } });
    expect(daemon.requests.slice(before).map((r) => r.op)).toEqual([]);
    const vs = await connectAs('voice-secretary', daemon);
    expect((await vs.listTools()).tools.map((t) => t.name).filter((n) => VOICE_TOOLS.includes(n))).toEqual(VOICE_TOOLS);
  });

  it('maps document, request and composer actions onto the assistant_* ops as the secretary', async () => {
    const daemon = new FakeDaemon({
      capability_state: state,
      assistant_voice_document_input_read: () => ok({ item_count: 0 }),
      assistant_voice_document_list: () => ok({ documents: [{ document_path: 'docs/a.md', title: 'a', status: 'active', revision_count: 2, content_chars: 5, content: 'hello' }], active_document_path: 'docs/a.md' }),
      assistant_voice_request: () => ok({ request: {} }),
      assistant_voice_instruction_feedback: () => ok({ ask_request: {} }),
      assistant_voice_prompt_draft_submit: () => ok({ prompt_draft: {} }),
    });
    const vs = await connectAs('voice-secretary', daemon);
    await vs.callTool({ name: 'cccc_voice_secretary_document', arguments: { action: 'read_new_input' } });
    expect(daemon.requests.at(-1)).toEqual({ v: 1, op: 'assistant_voice_document_input_read', args: { group_id: 'g_1', by: 'assistant:voice_secretary' } });
    const list = await vs.callTool({ name: 'cccc_voice_secretary_document', arguments: { action: 'list' } });
    expect(list.structuredContent).toEqual({ group_id: 'g_1', documents: [{ document_path: 'docs/a.md', title: 'a', status: 'active', revision_count: 2, content_chars: 5 }], active_document_path: 'docs/a.md' });
    await vs.callTool({ name: 'cccc_voice_secretary_request', arguments: { action: 'handoff', target: '@foreman', request_text: 'File the issue.' } });
    expect(daemon.requests.at(-1)).toEqual({ v: 1, op: 'assistant_voice_request', args: { group_id: 'g_1', by: 'voice-secretary', target: '@foreman', request_text: 'File the issue.' } });
    await vs.callTool({ name: 'cccc_voice_secretary_request', arguments: { action: 'report', request_id: 'vreq_1', status: 'done', reply_text: 'Done.' } });
    expect(daemon.requests.at(-1)).toMatchObject({ op: 'assistant_voice_instruction_feedback', args: { by: 'voice-secretary', request_id: 'vreq_1', status: 'done', reply_text: 'Done.' } });
    await vs.callTool({ name: 'cccc_voice_secretary_composer', arguments: { action: 'submit_prompt_draft', request_id: 'vprm_1', draft_text: 'Better.' } });
    expect(daemon.requests.at(-1)).toEqual({ v: 1, op: 'assistant_voice_prompt_draft_submit', args: { group_id: 'g_1', by: 'voice-secretary', request_id: 'vprm_1', draft_text: 'Better.' } });
    const before = daemon.requests.length;
    const missing = await vs.callTool({ name: 'cccc_voice_secretary_request', arguments: { action: 'handoff', request_text: 'x' } });
    expect(missing.structuredContent).toMatchObject({ error: { code: 'invalid_request', details: { field: 'target' } } });
    expect(daemon.requests.length).toBe(before);
  });
});
