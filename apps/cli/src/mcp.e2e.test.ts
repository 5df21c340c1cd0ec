import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, useDaemonHome } from './e2e-harness.js';

// The real `cccc mcp` process, driven by the SDK's client over stdio, against a real daemon.

const cli = useDaemonHome();
const clients: Client[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Team {
  group_id: string;
  scope: string;
  daemon: DaemonClient;
}

/** A group with an attached scope, lead (foreman) and peer1, both `custom` runtimes. */
async function team(): Promise<Team> {
  const daemon = new DaemonClient({ home: cli.home() });
  const root = mkdtempSync(join(tmpdir(), 'cccc-mcp-scope-'));
  dirs.push(root);
  const scope = join(root, 'repo');
  mkdirSync(join(scope, 'docs'), { recursive: true });
  writeFileSync(join(scope, 'docs', 'notes.txt'), 'inside the scope\n');
  writeFileSync(join(root, 'secret.txt'), 'outside the scope\n');
  symlinkSync(join(root, 'secret.txt'), join(scope, 'escape.txt'));
  const { group_id } = await daemon.call('group_create', { title: 'mcp', by: 'user' });
  await daemon.call('attach', { path: scope, group_id, by: 'user' });
  for (const actor_id of ['lead', 'peer1']) {
    await daemon.call('actor_add', { group_id, actor_id, runtime: 'custom', command: ['sh'], by: 'user' });
  }
  return { group_id, scope, daemon };
}

async function mcpAs(group_id: string, actor: string): Promise<Client> {
  const { CCCC_ACTOR_ID: _drop, ...env } = process.env as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { ...env, CCCC_HOME: cli.home(), CCCC_GROUP_ID: group_id, CCCC_ACTOR_ID: actor },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Result = { isError?: boolean; structuredContent?: any; content?: unknown };
const call = (c: Client, name: string, args: Record<string, unknown> = {}) => c.callTool({ name, arguments: args }) as Promise<Result>;

describe('cccc mcp (real process, real daemon)', () => {
  it('lists role-aware tools with honest annotations; foreman tools are hidden from peers', async () => {
    const { group_id } = await team();
    const lead = await mcpAs(group_id, 'lead');
    const peer = await mcpAs(group_id, 'peer1');
    const leadTools = (await lead.listTools()).tools;
    const peerNames = (await peer.listTools()).tools.map((t) => t.name);
    const common = [
      'cccc_help', 'cccc_bootstrap', 'cccc_inbox_read', 'cccc_message_history', 'cccc_message_send', 'cccc_message_reply',
      'cccc_message_deliver', 'cccc_reply_request_cancel', 'cccc_file', 'cccc_file_send', 'cccc_context_get', 'cccc_memory', 'cccc_notify',
      'cccc_presentation', 'cccc_automation',
    ];
    // cccc_terminal comes with pack:diagnostics (capability_enable), cccc_group/cccc_actor with the foreman's pack:group-runtime.
    const capability = ['cccc_capability_search', 'cccc_capability_enable', 'cccc_capability_state'];
    expect(peerNames).toEqual([...common, ...capability]);
    expect(leadTools.map((t) => t.name)).toEqual([...common, 'cccc_group', 'cccc_actor', ...capability]);

    const byName = Object.fromEntries(leadTools.map((t) => [t.name, t]));
    for (const ro of ['cccc_help', 'cccc_bootstrap', 'cccc_message_history', 'cccc_file', 'cccc_context_get']) {
      expect(byName[ro]!.annotations?.readOnlyHint, ro).toBe(true);
    }
    for (const rw of ['cccc_inbox_read', 'cccc_memory', 'cccc_message_send', 'cccc_message_reply', 'cccc_file_send', 'cccc_notify', 'cccc_presentation', 'cccc_automation', 'cccc_group', 'cccc_actor']) {
      expect(byName[rw]!.annotations?.readOnlyHint, rw).toBe(false);
    }
    // No tool exposes a principal; cccc_actor's actor_id is the target.
    for (const t of leadTools) {
      const props = Object.keys((t.inputSchema as { properties?: object }).properties ?? {});
      expect(props, t.name).not.toContain('by');
      expect(props, t.name).not.toContain('group_id');
      if (t.name !== 'cccc_actor') expect(props, t.name).not.toContain('actor_id');
    }
    expect((byName.cccc_file!.inputSchema as any).properties.action.enum).toEqual(['read', 'info', 'blob_path']);

    const denied = await call(peer, 'cccc_actor', { action: 'list' });
    expect(denied.isError).toBe(true);
    expect(denied.structuredContent.error.code).toBe('permission_denied');
    const listed = await call(lead, 'cccc_actor', { action: 'list' });
    expect(listed.structuredContent.actors.map((a: { id: string }) => a.id)).toEqual(['lead', 'peer1']);
  });

  it('sends to the user, gates agent sends on insight, reads and consumes Mail, replies', async () => {
    const { group_id, daemon } = await team();
    const peer = await mcpAs(group_id, 'peer1');
    const lead = await mcpAs(group_id, 'lead');

    const toUser = await call(peer, 'cccc_message_send', { to: 'user', text: 'status: green', mode: 'send' });
    expect(toUser.isError).toBeFalsy();
    expect(toUser.structuredContent).toMatchObject({ message_mode: 'send', event: { kind: 'chat.message', by: 'peer1', data: { to: ['user'], text: 'status: green' } } });
    // Only the op's receipt: nothing appended.
    expect(Object.keys(toUser.structuredContent).sort()).toEqual(['event', 'message_mode']);

    // Mail is the default mode, and Mail cannot go to the user: the daemon's own error, intact.
    const mailToUser = await call(peer, 'cccc_message_send', { to: 'user', text: 'fyi' });
    expect(mailToUser.isError).toBe(true);
    expect(mailToUser.structuredContent.error.code).toBe('mail_requires_actor_recipient');

    const noInsight = await call(peer, 'cccc_message_send', { to: 'lead', text: 'please review' });
    expect(noInsight.isError).toBe(true);
    expect(noInsight.structuredContent.error).toMatchObject({
      code: 'peer_insight_required',
      message: expect.stringContaining('insight'),
      details: { field: 'insight', delivery_state: 'not_sent', new_side_effects: false },
    });

    const mailed = await call(peer, 'cccc_message_send', { to: ['lead'], text: 'please review', insight: 'risky migration', idempotency_key: 'k1' });
    expect(mailed.structuredContent).toMatchObject({ message_mode: 'mail', event: { by: 'peer1', data: { to: ['lead'], message_mode: 'mail' } } });
    const again = await call(peer, 'cccc_message_send', { to: ['lead'], text: 'please review', insight: 'risky migration', idempotency_key: 'k1' });
    expect(again.structuredContent.event.id).toBe(mailed.structuredContent.event.id);

    const boot = await call(lead, 'cccc_bootstrap');
    expect(boot.structuredContent).toMatchObject({ identity: { group_id, actor_id: 'lead', role: 'foreman' }, mail_pending: 1 });
    expect(boot.structuredContent.inbox_preview.messages).toHaveLength(1);
    expect(boot.structuredContent.team.map((a: { id: string }) => a.id)).toEqual(['lead', 'peer1']);

    const read = await call(lead, 'cccc_inbox_read');
    expect(read.structuredContent.messages.map((m: any) => m.data.text)).toEqual(['please review']);
    const empty = await call(lead, 'cccc_inbox_read');
    expect(empty.structuredContent.messages).toEqual([]);

    const replied = await call(lead, 'cccc_message_reply', { event_id: mailed.structuredContent.event.id, text: 'done', mode: 'mail', insight: 'ok' });
    expect(replied.structuredContent).toMatchObject({ message_mode: 'mail', event: { by: 'lead', data: { reply_to: mailed.structuredContent.event.id, to: ['peer1'] } } });

    const history = await call(peer, 'cccc_message_history', { limit: 10 });
    expect(history.structuredContent.messages.map((m: any) => m.data.text)).toEqual(['done', 'please review', 'status: green']);

    // Error fidelity: the tool error equals the daemon's error for the same op.
    const missing = await call(lead, 'cccc_message_reply', { event_id: 'no-such-event', text: 'x' });
    const raw = await daemon.request({ v: 1, op: 'reply', args: { group_id, by: 'lead', reply_to: 'no-such-event', text: 'x', message_mode: 'send', require_peer_insight: true } });
    expect(raw.ok).toBe(false);
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error).toEqual({ code: raw.error!.code, message: raw.error!.message, details: raw.error!.details ?? {} });

    const notified = await call(peer, 'cccc_notify', { message: 'build finished', priority: 'low' });
    expect(notified.structuredContent.event).toMatchObject({ kind: 'system.notify', by: 'peer1' });
  });

  it('cccc_presentation publishes as the agent, reads the board and clears it', async () => {
    const { group_id, daemon } = await team();
    const peer = await mcpAs(group_id, 'peer1');
    const published = await call(peer, 'cccc_presentation', { action: 'publish', title: 'Results', content: '# green', summary: 'all tests pass' });
    expect(published.structuredContent).toMatchObject({ slot_id: 'slot-1', card: { published_by: 'peer1', card_type: 'markdown' }, event: { kind: 'presentation.publish', by: 'peer1' } });
    const linked = await call(peer, 'cccc_presentation', { action: 'publish', slot: 'slot-3', path: 'docs/notes.txt' });
    expect(linked.structuredContent.card).toMatchObject({ card_type: 'file', content: { mode: 'workspace_link', workspace_rel_path: 'docs/notes.txt' } });
    const escape = await call(peer, 'cccc_presentation', { action: 'publish', path: 'escape.txt' });
    expect(escape.structuredContent.error.code).toBe('outside_scope');
    const board = await call(peer, 'cccc_presentation', { action: 'get' });
    expect(board.structuredContent.presentation.highlight_slot_id).toBe('slot-3');
    const cleared = await call(peer, 'cccc_presentation', { action: 'clear', all: 'true' });
    expect(cleared.structuredContent.cleared_slots).toEqual(['slot-1', 'slot-3']);
    expect(await daemon.call('presentation_get', { group_id })).toMatchObject({ presentation: { highlight_slot_id: '' } });
    const spoof = await call(peer, 'cccc_presentation', { action: 'get', by: 'lead' });
    expect(spoof.structuredContent.error.code).toBe('identity_override_rejected');
  });

  it('cccc_automation: agents read reminders; a peer manages only its own personal notify rule', async () => {
    const { group_id } = await team();
    const peer = await mcpAs(group_id, 'peer1');
    const lead = await mcpAs(group_id, 'lead');
    const state = await call(peer, 'cccc_automation', { action: 'state' });
    expect(state.structuredContent).toMatchObject({ version: 1, supported_vars: ['interval_minutes', 'group_title', 'actor_names', 'scheduled_at'] });
    const rule = { id: 'stretch', scope: 'personal', owner_actor_id: 'peer1', to: ['peer1'], trigger: { kind: 'interval', every_seconds: 3600 }, action: { kind: 'notify', message: 'stand up' } };
    const mine = await call(peer, 'cccc_automation', { action: 'manage', expected_version: 1, actions: [{ type: 'create_rule', rule }] });
    expect(mine.structuredContent).toMatchObject({ changed: true, version: 2 });
    const group = await call(peer, 'cccc_automation', { action: 'manage', actions: [{ type: 'create_rule', rule: { ...rule, id: 'all', scope: 'group', to: ['@all'] } }] });
    expect(group.structuredContent.error.code).toBe('permission_denied');
    const pause = { id: 'pause', trigger: { kind: 'at', at: '2030-01-01T00:00:00Z' }, action: { kind: 'group_state', state: 'paused' } };
    const foreman = await call(lead, 'cccc_automation', { action: 'manage', actions: [{ type: 'create_rule', rule: pause }] });
    expect(foreman.structuredContent.error.code).toBe('permission_denied');
    const stale = await call(lead, 'cccc_automation', { action: 'manage', expected_version: 1, actions: [{ type: 'set_rule_enabled', rule_id: 'standup', enabled: true }] });
    expect(stale.structuredContent.error.code).toBe('version_conflict');
  });

  it('identity cannot be spoofed through arguments', async () => {
    const { group_id, daemon } = await team();
    const peer = await mcpAs(group_id, 'peer1');
    for (const key of ['by', 'actor_id', 'group_id']) {
      const spoof = await call(peer, 'cccc_message_send', { to: 'user', text: `as someone else (${key})`, mode: 'send', [key]: key === 'group_id' ? 'g_other' : 'lead' });
      expect(spoof.isError, key).toBe(true);
      expect(spoof.structuredContent.error).toMatchObject({ code: 'identity_override_rejected', details: { field: key, delivery_state: 'not_sent' } });
    }
    const unknownKey = await call(peer, 'cccc_inbox_read', { who: 'lead' });
    expect(unknownKey.structuredContent.error).toMatchObject({ code: 'invalid_request', details: { field: 'who' } });
    const spoofRead = await call(peer, 'cccc_inbox_read', { actor_id: 'lead' });
    expect(spoofRead.structuredContent.error.code).toBe('identity_override_rejected');
    // Nothing was written by anyone.
    const { events } = (await daemon.call('ledger_tail', { group_id, limit: 50 }));
    expect(events.filter((e) => e.kind === 'chat.message')).toEqual([]);
  });

  it('cccc_file reads inside the scope only and never sends; cccc_file_send does', async () => {
    const { group_id } = await team();
    const peer = await mcpAs(group_id, 'peer1');
    const read = await call(peer, 'cccc_file', { action: 'read', rel_path: 'docs/notes.txt' });
    expect(read.structuredContent).toMatchObject({ root: 'scope', rel_path: 'docs/notes.txt', encoding: 'utf8', content: 'inside the scope\n', truncated: false });
    const info = await call(peer, 'cccc_file', { action: 'info', rel_path: 'docs/notes.txt' });
    expect(info.structuredContent).toMatchObject({ size: 17 });
    for (const rel_path of ['../secret.txt', 'escape.txt', '/etc/passwd', 'docs/../../secret.txt']) {
      const refused = await call(peer, 'cccc_file', { action: 'read', rel_path });
      expect(refused.isError, rel_path).toBe(true);
      expect(refused.structuredContent.error.code, rel_path).toBe('outside_scope');
    }
    const send = await call(peer, 'cccc_file', { action: 'send', rel_path: 'docs/notes.txt' });
    expect(send.structuredContent.error).toMatchObject({ code: 'invalid_action', details: { delivery_state: 'not_sent', new_side_effects: false } });
    expect((await call(peer, 'cccc_message_history')).structuredContent.messages).toEqual([]);

    const sent = await call(peer, 'cccc_file_send', { path: 'docs/notes.txt', to: 'user', mode: 'send', text: 'the notes' });
    expect(sent.isError).toBeFalsy();
    const attachment = sent.structuredContent.event.data.attachments[0];
    expect(attachment.path).toMatch(/^state\/blobs\//);
    const blob = await call(peer, 'cccc_file', { action: 'blob_path', rel_path: attachment.path });
    expect(blob.structuredContent.path).toContain(join(cli.home(), 'groups', group_id, 'state', 'blobs'));
    const blobRead = await call(peer, 'cccc_file', { rel_path: attachment.path });
    expect(blobRead.structuredContent.content).toBe('inside the scope\n');
    const blobEscape = await call(peer, 'cccc_file', { rel_path: 'state/blobs/../../group.yaml' });
    expect(blobEscape.structuredContent.error.code).toBe('outside_scope');
  });

  it('help, context, terminal; refuses to start without identity; --print-config', async () => {
    const { group_id, daemon } = await team();
    await daemon.call('capability_enable', { group_id, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'peer1', by: 'user' });
    const peer = await mcpAs(group_id, 'peer1');
    const help = await call(peer, 'cccc_help');
    expect(help.structuredContent).toMatchObject({ group_id, actor_id: 'peer1', filename: 'CCCC_HELP.md' });
    const context = await call(peer, 'cccc_context_get');
    expect(context.structuredContent).toHaveProperty('coordination');
    const term = await call(peer, 'cccc_terminal', { max_chars: 100 });
    // Either the tail, or the daemon's own error (e.g. no live terminal) kept intact.
    if (term.isError) expect(term.structuredContent.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    else expect(term.structuredContent).toMatchObject({ actor_id: 'peer1' });

    const noIdentity = await cli.cccc(['mcp'], { CCCC_GROUP_ID: '', CCCC_ACTOR_ID: '' });
    expect(noIdentity.code).toBe(2);
    expect(noIdentity.stderr).toMatch(/missing CCCC_GROUP_ID, CCCC_ACTOR_ID/);

    const env = { CCCC_GROUP_ID: group_id, CCCC_ACTOR_ID: 'peer1' };
    const claude = await cli.cccc(['mcp', '--print-config'], env);
    expect(JSON.parse(claude.stdout)).toEqual({
      mcpServers: { cccc: { type: 'stdio', command: process.execPath, args: [BIN, 'mcp'], env: { CCCC_HOME: cli.home(), ...env } } },
    });
    const codex = await cli.cccc(['mcp', '--print-config', '--runtime', 'codex'], env);
    expect(codex.stdout).toContain(`-c 'mcp_servers.cccc.command=${JSON.stringify(process.execPath)}'`);
    expect(codex.stdout).toContain(`mcp_servers.cccc.args=[${JSON.stringify(BIN)}, "mcp"]`);
    expect(codex.stdout).toContain(`CCCC_ACTOR_ID = "peer1"`);
    expect((await cli.cccc(['mcp', '--print-config', '--runtime', 'gemini'])).code).toBe(2);
  });
});
