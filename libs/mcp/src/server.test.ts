import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { DaemonRequestV1, DaemonResponseV1 } from '@cccc/ipc-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TOOLS, visibleTools } from './catalog.js';
import type { DaemonPort } from './daemon-port.js';
import { resolveInside } from './file-access.js';
import { createMcpServer } from './server.js';

/** A fake daemon: records every request and answers from a per-op table. */
class FakeDaemon implements DaemonPort {
  readonly requests: DaemonRequestV1[] = [];
  constructor(private readonly answers: Record<string, (args: Record<string, unknown>) => DaemonResponseV1 | Error>) {}
  async request(request: DaemonRequestV1): Promise<DaemonResponseV1> {
    this.requests.push(request);
    const answer = this.answers[request.op]?.(request.args ?? {}) ?? fail('unknown_op', `unknown op: ${request.op}`);
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

const ok = (result: Record<string, unknown>): DaemonResponseV1 => ({ v: 1, ok: true, result });
const fail = (code: string, message: string, details?: Record<string, unknown>) =>
  ({ v: 1, ok: false, error: { code, message, ...(details ? { details } : {}) } }) as unknown as DaemonResponseV1;
const actors = (first: string) => ok({ actors: [first, 'other'].map((id, i) => ({ id, title: id, runtime: 'custom', enabled: true, running: false, role: i === 0 ? 'foreman' : 'peer' })) });
const identity = { home: '/h', groupId: 'g_1', actorId: 'peer1' };
const open: Client[] = [];

async function connect(daemon: DaemonPort): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ identity, daemon }).connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  open.push(client);
  return client;
}

afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

describe('createMcpServer (fake daemon)', () => {
  it('every op carries the environment identity; send asks for the insight gate and maps mode/idempotency', async () => {
    const daemon = new FakeDaemon({ actor_list: () => actors('lead'), send: () => ok({ event: { id: 'e1' }, message_mode: 'mail' }) });
    const client = await connect(daemon);
    const res = await client.callTool({ name: 'cccc_message_send', arguments: { to: 'lead', text: 'hi', insight: 'i', idempotency_key: 'k' } });
    expect(res.structuredContent).toEqual({ event: { id: 'e1' }, message_mode: 'mail' });
    expect(daemon.requests.at(-1)).toEqual({
      v: 1,
      op: 'send',
      args: { group_id: 'g_1', by: 'peer1', to: ['lead'], text: 'hi', message_mode: 'mail', insight: 'i', client_id: 'k', require_peer_insight: true },
    });
  });

  it('keeps the daemon error verbatim and reports transport failures as daemon_unavailable', async () => {
    const details = { field: 'insight', delivery_state: 'not_sent', new_side_effects: false };
    const daemon = new FakeDaemon({
      send: () => fail('peer_insight_required', 'add an insight', details),
      inbox_read: () => Object.assign(new Error('connect ENOENT'), { failure: 'connect', requestSent: false }),
    });
    const client = await connect(daemon);
    const res = await client.callTool({ name: 'cccc_message_send', arguments: { to: 'lead', text: 'hi' } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toEqual({ error: { code: 'peer_insight_required', message: 'add an insight', details } });
    const down = await client.callTool({ name: 'cccc_inbox_read', arguments: {} });
    expect(down.structuredContent).toMatchObject({ error: { code: 'daemon_unavailable', details: { op: 'inbox_read', failure: 'connect', request_sent: false } } });
  });

  it('refuses identity keys without calling the daemon', async () => {
    const daemon = new FakeDaemon({});
    const client = await connect(daemon);
    for (const key of ['by', 'group_id', 'actor_id']) {
      const res = await client.callTool({ name: 'cccc_notify', arguments: { message: 'x', [key]: 'lead' } });
      expect(res.structuredContent).toMatchObject({ error: { code: 'identity_override_rejected', details: { field: key } } });
    }
    expect(daemon.requests).toEqual([]);
  });

  it('lists foreman tools only to the foreman and refuses them to a peer', async () => {
    const asPeer = await connect(new FakeDaemon({ actor_list: () => actors('lead') }));
    expect((await asPeer.listTools()).tools.map((t) => t.name)).not.toContain('cccc_group');
    const denied = await asPeer.callTool({ name: 'cccc_group', arguments: { action: 'show' } });
    expect(denied.structuredContent).toMatchObject({ error: { code: 'permission_denied' } });
    const asForeman = await connect(new FakeDaemon({ actor_list: () => actors('peer1'), group_show: () => ok({ group: { group_id: 'g_1' } }) }));
    expect((await asForeman.listTools()).tools.map((t) => t.name)).toContain('cccc_group');
    expect((await asForeman.callTool({ name: 'cccc_group', arguments: { action: 'show' } })).structuredContent).toEqual({ group: { group_id: 'g_1' } });
  });

  it('cccc_memory maps its actions onto memory_reme_* as the caller, and checks required fields first', async () => {
    const daemon = new FakeDaemon({ memory_reme_search: () => ok({ hits: [], count: 0, took_ms: 0 }), memory_reme_write: () => ok({ status: 'written' }) });
    const client = await connect(daemon);
    expect((await client.callTool({ name: 'cccc_memory', arguments: { action: 'search', query: 'parser', max_results: 3 } })).structuredContent).toEqual({ hits: [], count: 0, took_ms: 0 });
    expect(daemon.requests.at(-1)).toEqual({ v: 1, op: 'memory_reme_search', args: { group_id: 'g_1', query: 'parser', max_results: 3 } });
    await client.callTool({ name: 'cccc_memory', arguments: { action: 'write', target: 'memory', content: 'a fact', tags: ['t'] } });
    expect(daemon.requests.at(-1)).toEqual({ v: 1, op: 'memory_reme_write', args: { group_id: 'g_1', target: 'memory', content: 'a fact', tags: ['t'], actor_id: 'peer1' } });
    const before = daemon.requests.length;
    const res = await client.callTool({ name: 'cccc_memory', arguments: { action: 'get' } });
    expect(res.structuredContent).toMatchObject({ error: { code: 'invalid_request', details: { field: 'path' } } });
    expect(daemon.requests.length).toBe(before);
  });

  it('catalog: read-only hints only on tools whose every action reads', () => {
    expect(visibleTools('peer').length).toBe(ALL_TOOLS.length - 4 - 3); // pack tools (group, actor, terminal, im_bind), and the voice-secretary's own three
    const ro = ALL_TOOLS.filter((t) => t.annotations.readOnlyHint).map((t) => t.name);
    expect(ro).toEqual(['cccc_help', 'cccc_bootstrap', 'cccc_message_history', 'cccc_file', 'cccc_context_get', 'cccc_terminal', 'cccc_capability_search', 'cccc_capability_state']);
  });
});

describe('resolveInside', () => {
  const root = mkdtempSync(join(tmpdir(), 'cccc-mcp-fs-'));
  const scope = join(root, 'scope');
  mkdirSync(join(scope, 'd'), { recursive: true });
  writeFileSync(join(scope, 'd', 'a.txt'), 'a');
  writeFileSync(join(root, 'out.txt'), 'o');
  symlinkSync(join(root, 'out.txt'), join(scope, 'link.txt'));
  symlinkSync(join(scope, 'd', 'a.txt'), join(scope, 'inner-link.txt'));

  it('resolves regular files inside, including links that stay inside', () => {
    expect(resolveInside(scope, 'd/a.txt', 'scope')).toMatchObject({ rel_path: 'd/a.txt', size: 1 });
    expect(resolveInside(scope, 'inner-link.txt', 'scope')).toMatchObject({ rel_path: 'd/a.txt' });
  });

  it('refuses traversal, absolute paths, escaping links, directories and missing files', () => {
    const code = (rel: string) => {
      try {
        resolveInside(scope, rel, 'scope');
        return 'resolved';
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(code('../out.txt')).toBe('outside_scope');
    expect(code('d/../../out.txt')).toBe('outside_scope');
    expect(code(join(root, 'out.txt'))).toBe('outside_scope');
    expect(code('link.txt')).toBe('outside_scope');
    expect(code('d')).toBe('invalid_path');
    expect(code('nope.txt')).toBe('path_not_found');
    rmSync(root, { recursive: true, force: true });
  });
});
