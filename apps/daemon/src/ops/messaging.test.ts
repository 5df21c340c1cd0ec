import { createConnection } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opCatalog, type CCCSEventV1 } from '@cccc/ipc-protocol';
import { DaemonCallError } from '@cccc/ipc-protocol/node';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;
let scope: string;

async function code(p: Promise<unknown>): Promise<{ code: string; details: Record<string, unknown> }> {
  const err = await p.then(
    () => undefined,
    (e) => e,
  );
  expect(err, 'the call should fail').toBeInstanceOf(DaemonCallError);
  return { code: (err as DaemonCallError).code, details: (err as DaemonCallError).details };
}

/**
 * The group's events not written by the daemon itself. Its own (a reply-required reminder, a
 * delivery fact) follow timers and may land while a test runs on a loaded machine; a rejected
 * request of a caller must not add one of the caller's.
 */
const callerEvents = () => fx.ledgerLines(gid).filter((line) => (JSON.parse(line) as { by: string }).by !== 'system');

/** Expect a rejection that appended nothing. */
async function rejects(p: Promise<unknown>, expected: string) {
  const before = callerEvents().length;
  const { code: c, details } = await code(p);
  expect(c).toBe(expected);
  expect(callerEvents().length).toBe(before);
  return details;
}

beforeAll(async () => {
  fx = await startDaemonFixture();
  scope = mkdtempSync(join(tmpdir(), 'cccc-scope-'));
  const created = await fx.client.call('group_create', { title: 'msg-test' });
  gid = created.group_id;
  await fx.client.call('attach', { path: scope, group_id: gid });
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['sh'] });
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['sh'] });
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer2', runtime: 'custom', command: ['sh'] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

/** One request over a raw socket: the exact answer line the daemon wrote. */
async function rawAnswer(op: string, args: Record<string, unknown>): Promise<string> {
  const socket = createConnection((fx.daemon.endpoint as { path: string }).path);
  await new Promise((r) => socket.once('connect', r));
  let buf = '';
  const line = new Promise<string>((resolve) => {
    socket.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
  });
  socket.write(JSON.stringify({ v: 1, op, args }) + '\n');
  try {
    return await line;
  } finally {
    socket.destroy();
  }
}

describe('send answer bytes', () => {
  it('splices the ledger line into the answer: the same bytes as serializing the answer, the event as written', async () => {
    for (const args of [
      { group_id: gid, text: 'splice "quoted" \u2028 é', to: ['peer1'], message_mode: 'mail' },
      { group_id: gid, text: 'with refs', to: ['@all'], message_mode: 'send', refs: [{ kind: 'url', url: 'https://example.test/a?b="c"', extra: 1 }], client_id: 'splice-1' },
    ]) {
      const line = await rawAnswer('send', args);
      const parsed = JSON.parse(line) as { ok: boolean; result: { event: { id: string }; message_mode: string } };
      expect(parsed.ok, line).toBe(true);
      expect(line).toBe(JSON.stringify(parsed));
      expect(fx.ledgerLines(gid).find((l) => l.includes(`"id":"${parsed.result.event.id}"`))).toBe(JSON.stringify(parsed.result.event));
    }
    // A client_id replay answers the original event, serialized the ordinary way.
    const before = fx.ledgerLines(gid).filter((l) => l.includes('"client_id":"splice-1"'));
    const replay = JSON.parse(await rawAnswer('send', { group_id: gid, text: 'with refs', to: ['@all'], message_mode: 'send', refs: [{ kind: 'url', url: 'https://example.test/a?b="c"', extra: 1 }], client_id: 'splice-1' }));
    expect(before).toHaveLength(1);
    expect(JSON.stringify(replay.result.event)).toBe(before[0]);
  });
});

describe('send', () => {
  it('appends a Mail message that only fills the recipient Inbox; peek does not consume, read does', async () => {
    const res = await fx.client.call('send', { group_id: gid, text: 'hello mail', to: ['peer1'], message_mode: 'mail' });
    opCatalog.send.result.parse(res);
    expect(res.message_mode).toBe('mail');
    expect(res.event).toMatchObject({ kind: 'chat.message', by: 'user', group_id: gid, data: { text: 'hello mail', to: ['peer1'], message_mode: 'mail' } });
    expect(res.event.id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.event.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const peek1 = await fx.client.call('inbox_peek', { group_id: gid, actor_id: 'peer1' });
    const peek2 = await fx.client.call('inbox_peek', { group_id: gid, actor_id: 'peer1' });
    expect(peek1.messages.map((m) => m.id)).toContain(res.event.id);
    expect(peek2.messages.map((m) => m.id)).toEqual(peek1.messages.map((m) => m.id));
    expect((await fx.client.call('inbox_peek', { group_id: gid, actor_id: 'peer2' })).messages.map((m) => m.id)).not.toContain(res.event.id);

    const read = await fx.client.call('inbox_read', { group_id: gid, actor_id: 'peer1', by: 'peer1' });
    opCatalog.inbox_read.result.parse(read);
    expect(read.messages.map((m) => m.id)).toContain(res.event.id);
    expect(read.event).toMatchObject({ kind: 'mail.read', data: { actor_id: 'peer1', event_id: res.event.id } });
    const cursors = JSON.parse(readFileSync(join(fx.home, 'groups', gid, 'state', 'read_cursors.json'), 'utf8'));
    expect(cursors).toMatchObject({ schema: 1, cursors: { peer1: { event_id: res.event.id } } });
    const empty = await fx.client.call('inbox_read', { group_id: gid, actor_id: 'peer1', by: 'peer1' });
    expect(empty).toMatchObject({ messages: [], event: null });
  });

  it('only the recipient or the user consumes an Inbox; a peer cannot even peek at another', async () => {
    await fx.client.call('send', { group_id: gid, text: 'for peer2', to: ['peer2'], message_mode: 'mail' });
    await rejects(fx.client.call('inbox_read', { group_id: gid, actor_id: 'peer2', by: 'peer1' }), 'permission_denied');
    await rejects(fx.client.call('inbox_peek', { group_id: gid, actor_id: 'peer2', by: 'peer1' }), 'permission_denied');
    expect((await fx.client.call('inbox_peek', { group_id: gid, actor_id: 'peer2', by: 'lead' })).messages.length).toBeGreaterThan(0);
  });

  it('refuses legacy fields, mixed audiences, Mail to the user and unknown recipients, appending nothing', async () => {
    const raw = (args: Record<string, unknown>) =>
      fx.client.request({ v: 1, op: 'send', args: { group_id: gid, text: 'x', message_mode: 'send', ...args } }).then((r) => {
        if (!r.ok) throw new DaemonCallError('send', r.error!);
        return r;
      });
    for (const legacy of [{ priority: 'high' }, { reply_required: true }, { requires_ack: true }]) {
      await rejects(raw(legacy), 'unsupported_message_fields');
    }
    const noMode = await fx.client.request({ v: 1, op: 'send', args: { group_id: gid, text: 'x' } });
    expect(noMode.error).toMatchObject({ code: 'invalid_request', details: { field: 'message_mode' } });
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['user', 'peer1'], message_mode: 'send' }), 'mixed_recipient_kinds');
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['user'], message_mode: 'mail', by: 'peer1' }), 'mail_requires_actor_recipient');
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['nobody'], message_mode: 'send' }), 'invalid_recipient');
    await rejects(fx.client.call('send', { group_id: gid, text: '   ', to: ['peer1'], message_mode: 'send' }), 'empty_message');
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['@foreman'], message_mode: 'send', by: 'lead' }), 'no_enabled_recipients');
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['peer1'], message_mode: 'send', by: 'stranger' }), 'permission_denied');
    await rejects(fx.client.call('send', { group_id: 'g_000000000000', text: 'x', message_mode: 'send' }), 'group_not_found');
  });

  it('request_reply needs concrete recipients; omitted and @foreman resolve to the enabled foreman', async () => {
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['@all'], message_mode: 'request_reply' }), 'concrete_recipients_required');
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['@peers'], message_mode: 'request_reply' }), 'concrete_recipients_required');
    const omitted = await fx.client.call('send', { group_id: gid, text: 'status?', message_mode: 'request_reply' });
    expect(omitted.event.data['to']).toEqual(['lead']);
    const selector = await fx.client.call('send', { group_id: gid, text: 'status?', to: ['@foreman'], message_mode: 'request_reply' });
    expect(selector.event.data['to']).toEqual(['lead']);
  });

  it('validates insight and the peer-insight profile gate after routing', async () => {
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['peer1'], message_mode: 'send', insight: 'i'.repeat(1201) }), 'invalid_insight');
    await rejects(fx.client.call('send', { group_id: gid, text: 'x', to: ['peer1'], message_mode: 'send', insight: 42 }), 'invalid_insight');
    const details = await rejects(
      fx.client.call('send', { group_id: gid, text: 'x', to: ['peer1'], message_mode: 'send', by: 'lead', require_peer_insight: true }),
      'peer_insight_required',
    );
    expect(details).toMatchObject({ delivery_state: 'not_sent', new_side_effects: false });
    // to the user, no insight is needed
    const ok = await fx.client.call('send', { group_id: gid, text: 'x', to: ['user'], message_mode: 'send', by: 'lead', require_peer_insight: true });
    expect(ok.event.data['to']).toEqual(['user']);
    const withInsight = await fx.client.call('send', { group_id: gid, text: 'x', to: ['peer1'], message_mode: 'send', insight: '  the risk is X  ' });
    expect(withInsight.event.data['insight']).toBe('the risk is X');
  });

  it('materializes default_send_to and excludes the sender', async () => {
    const res = await fx.client.call('send', { group_id: gid, text: 'default', message_mode: 'send' });
    expect(res.event.data['to']).toEqual(['@foreman']);
    const all = await fx.client.call('send', { group_id: gid, text: 'to all', to: ['@all'], message_mode: 'mail', by: 'peer1' });
    const peek = await fx.client.call('inbox_peek', { group_id: gid, actor_id: 'peer1' });
    expect(peek.messages.map((m) => m.id)).not.toContain(all.event.id);
  });

  it('replays a client_id duplicate instead of appending', async () => {
    const a = await fx.client.call('send', { group_id: gid, text: 'once', to: ['peer1'], message_mode: 'mail', client_id: 'c-1' });
    const before = fx.ledgerLines(gid).length;
    const b = await fx.client.call('send', { group_id: gid, text: 'once', to: ['peer1'], message_mode: 'mail', client_id: 'c-1' });
    expect(b.event.id).toBe(a.event.id);
    expect(fx.ledgerLines(gid).length).toBe(before);
  });

  it('applies the summary root-body policy to new non-reply sends', async () => {
    await fx.client.call('group_settings_update', { group_id: gid, patch: { root_body_policy: 'summary' } } as never);
    try {
      const details = await rejects(fx.client.call('send', { group_id: gid, text: 'line1\nline2\nline3\nline4', to: ['peer1'], message_mode: 'send' }), 'root_body_not_summary');
      expect(details.rule).toBeTypeOf('string');
      await fx.client.call('send', { group_id: gid, text: 'short summary', to: ['peer1'], message_mode: 'send' });
    } finally {
      await fx.client.call('group_settings_update', { group_id: gid, patch: { root_body_policy: 'off' } } as never);
    }
  });
});

describe('reply and reply obligations', () => {
  it('replies to the original sender with a quote, and closes the obligation', async () => {
    const ask = await fx.client.call('send', { group_id: gid, text: 'please review PR 12 — '.repeat(10), to: ['peer1'], message_mode: 'request_reply', by: 'lead' });
    const reply = await fx.client.call('reply', { group_id: gid, reply_to: ask.event.id.slice(0, 12), text: 'done', by: 'peer1' });
    opCatalog.reply.result.parse(reply);
    expect(reply.message_mode).toBe('send');
    expect(reply.event.data).toMatchObject({ reply_to: ask.event.id, to: ['lead'] });
    expect(String(reply.event.data['quote_text'])).toMatch(/\.\.\.$/);
    expect([...String(reply.event.data['quote_text'])].length).toBe(103);
    const st = await fx.client.call('ledger_statuses', { group_id: gid, event_ids: [ask.event.id] });
    expect(st.statuses[ask.event.id]!['peer1']).toMatchObject({ reply_requested: true, replied: true, cancelled: false });
  });

  it('rejects request_reply as a reply mode and an unknown reply_to', async () => {
    const res = await fx.client.request({ v: 1, op: 'reply', args: { group_id: gid, reply_to: 'abc', text: 'x', message_mode: 'request_reply' } });
    expect(res.error).toMatchObject({ code: 'invalid_request', details: { field: 'message_mode' } });
    await rejects(fx.client.call('reply', { group_id: gid, reply_to: 'f'.repeat(32), text: 'x' }), 'event_not_found');
  });

  it('a mail reply to the user is refused', async () => {
    const fromUser = await fx.client.call('send', { group_id: gid, text: 'hi', to: ['peer1'], message_mode: 'send' });
    await rejects(fx.client.call('reply', { group_id: gid, reply_to: fromUser.event.id, text: 'x', by: 'peer1', message_mode: 'mail' }), 'mail_requires_actor_recipient');
  });

  it('cancel: only the source sender or the user, idempotent, and append order decides', async () => {
    const ask = await fx.client.call('send', { group_id: gid, text: 'both of you?', to: ['peer1', 'peer2'], message_mode: 'request_reply', by: 'lead' });
    await fx.client.call('reply', { group_id: gid, reply_to: ask.event.id, text: 'me first', by: 'peer1' });
    await rejects(fx.client.call('reply_request_cancel', { group_id: gid, source_event_id: ask.event.id, by: 'peer2' }), 'permission_denied');
    const c1 = await fx.client.call('reply_request_cancel', { group_id: gid, source_event_id: ask.event.id, by: 'lead' });
    expect(c1.event).toMatchObject({ kind: 'chat.reply_request.cancelled', data: { source_event_id: ask.event.id } });
    const before = fx.ledgerLines(gid).length;
    const c2 = await fx.client.call('reply_request_cancel', { group_id: gid, source_event_id: ask.event.id });
    expect(c2.event.id).toBe(c1.event.id);
    expect(fx.ledgerLines(gid).length).toBe(before);
    await fx.client.call('reply', { group_id: gid, reply_to: ask.event.id, text: 'late', by: 'peer2' });
    const st = await fx.client.call('ledger_statuses', { group_id: gid, event_ids: [ask.event.id, 'f'.repeat(32)] });
    expect(st.statuses[ask.event.id]).toMatchObject({
      peer1: { replied: true, cancelled: false },
      peer2: { replied: false, cancelled: true },
    });
    expect(st.unknown_event_ids).toEqual(['f'.repeat(32)]);
    const plain = await fx.client.call('send', { group_id: gid, text: 'fyi', to: ['peer1'], message_mode: 'send' });
    await rejects(fx.client.call('reply_request_cancel', { group_id: gid, source_event_id: plain.event.id }), 'not_reply_request');
  });
});

describe('send_files', () => {
  it('stores regular files of the active scope as blobs and attaches them', async () => {
    writeFileSync(join(scope, 'notes.md'), '# notes\nhello\n');
    const res = await fx.client.call('send_files', { group_id: gid, paths: ['notes.md'], to: ['peer1'], message_mode: 'mail' });
    const [att] = res.event.data['attachments'] as Array<Record<string, unknown>>;
    expect(att).toMatchObject({ kind: 'text', title: 'notes.md', mime_type: 'text/markdown', bytes: 14 });
    expect(String(att!.path)).toMatch(/^state\/blobs\/[0-9a-f]{64}_notes\.md$/);
    expect(readFileSync(join(fx.home, 'groups', gid, String(att!.path)), 'utf8')).toBe('# notes\nhello\n');
  });

  it('refuses traversal, symlink escapes and non-regular files, storing nothing', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'cccc-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'top secret');
    symlinkSync(join(outside, 'secret.txt'), join(scope, 'link.txt'));
    mkdirSync(join(scope, 'adir'), { recursive: true });
    const blobs = () => (existsSync(join(fx.home, 'groups', gid, 'state', 'blobs')) ? readdirSync(join(fx.home, 'groups', gid, 'state', 'blobs')).length : 0);
    const n = blobs();
    await rejects(fx.client.call('send_files', { group_id: gid, paths: ['../' + outside.split('/').pop() + '/secret.txt'], message_mode: 'send', to: ['peer1'] }), 'outside_scope');
    await rejects(fx.client.call('send_files', { group_id: gid, paths: [join(outside, 'secret.txt')], message_mode: 'send', to: ['peer1'] }), 'outside_scope');
    await rejects(fx.client.call('send_files', { group_id: gid, paths: ['link.txt'], message_mode: 'send', to: ['peer1'] }), 'outside_scope');
    await rejects(fx.client.call('send_files', { group_id: gid, paths: ['adir'], message_mode: 'send', to: ['peer1'] }), 'invalid_path');
    await rejects(fx.client.call('send_files', { group_id: gid, paths: ['notes.md'], message_mode: 'mail', to: ['user'] }), 'mail_requires_actor_recipient');
    expect(blobs()).toBe(n);
  });
});

describe('send_cross_group', () => {
  it('writes a source record here and a forwarded message there', async () => {
    const other = (await fx.client.call('group_create', { title: 'other' })).group_id;
    await fx.client.call('actor_add', { group_id: other, actor_id: 'ext', runtime: 'custom', command: ['sh'] });
    const res = await fx.client.call('send_cross_group', { group_id: gid, dst_group_id: other, text: 'hello there', to: ['ext'], message_mode: 'mail', by: 'peer1' });
    expect(res.src_event).toMatchObject({ group_id: gid, by: 'peer1', data: { to: ['user'], message_mode: 'send', dst_group_id: other, dst_to: ['ext'], dst_message_mode: 'mail' } });
    expect(res.dst_event).toMatchObject({ group_id: other, data: { to: ['ext'], message_mode: 'mail', src_group_id: gid, src_event_id: res.src_event.id } });
    expect((await fx.client.call('inbox_peek', { group_id: other, actor_id: 'ext' })).messages.map((m) => m.id)).toContain(res.dst_event.id);
    const asUser = await fx.client.call('send_cross_group', { group_id: gid, dst_group_id: other, text: 'from the user', to: ['ext'], message_mode: 'send' });
    expect(asUser.src_event).toMatchObject({ by: 'user', data: { to: ['user'], dst_to: ['ext'] } });
    expect(asUser.dst_event).toMatchObject({ by: 'user', data: { src_by: 'user' } });
    await rejects(fx.client.call('send_cross_group', { group_id: gid, dst_group_id: other, text: 'x', to: ['ext'], message_mode: 'send', by: 'ghost' }), 'permission_denied');
    const attachments = await fx.client.request({ v: 1, op: 'send_cross_group', args: { group_id: gid, dst_group_id: other, text: 'x', message_mode: 'send', attachments: [] } });
    expect(attachments.error?.code).toBe('unsupported_message_fields');
  });
});

describe('message_history and ledger reads', () => {
  it('history is newest-first, filtered by mode and query, paged, and read-only', async () => {
    const before = fx.ledgerLines(gid).length;
    const page1 = await fx.client.call('message_history', { group_id: gid, actor_id: 'peer1', limit: 3 });
    expect(page1.messages).toHaveLength(3);
    const ords = page1.messages.map((m) => fx.ledgerLines(gid).findIndex((l) => l.includes(m.id)));
    expect([...ords].sort((a, b) => b - a)).toEqual(ords);
    expect(page1.has_more).toBe(true);
    const page2 = await fx.client.call('message_history', { group_id: gid, actor_id: 'peer1', limit: 3, before_event_id: page1.messages[2]!.id });
    expect(page2.messages.map((m) => m.id)).not.toContain(page1.messages[2]!.id);
    const mails = await fx.client.call('message_history', { group_id: gid, actor_id: 'peer1', mode: 'mail', limit: 50 });
    expect(mails.messages.every((m) => m.data['message_mode'] === 'mail')).toBe(true);
    const q = await fx.client.call('message_history', { group_id: gid, actor_id: 'peer1', query: 'HELLO MAIL', limit: 50 });
    expect(q.messages.map((m) => m.data['text'])).toContain('hello mail');
    expect(mails.messages.every((m) => m.by === 'peer1' || (m.data['to'] as string[]).some((t) => ['peer1', '@all', '@peers'].includes(t)))).toBe(true);
    expect(fx.ledgerLines(gid).length).toBe(before);
  });

  it('ledger_tail pages backwards in append order with statuses; ledger_search finds text', async () => {
    const tail = await fx.client.call('ledger_tail', { group_id: gid, limit: 5, kinds: ['chat.message'], with_read_status: true, with_obligation_status: true });
    opCatalog.ledger_tail.result.parse(tail);
    expect(tail.events).toHaveLength(5);
    const lines = fx.ledgerLines(gid).map((l) => JSON.parse(l) as CCCSEventV1).filter((e) => e.kind === 'chat.message');
    expect(tail.events.map((e) => e.id)).toEqual(lines.slice(-5).map((e) => e.id));
    const older = await fx.client.call('ledger_tail', { group_id: gid, limit: 5, kinds: ['chat.message'], before_event_id: tail.events[0]!.id });
    expect(older.events.map((e) => e.id)).toEqual(lines.slice(-10, -5).map((e) => e.id));
    expect(Object.keys(tail.read_status ?? {})).toEqual(tail.events.map((e) => e.id));
    const found = await fx.client.call('ledger_search', { group_id: gid, query: 'hello there', limit: 10 });
    expect(found.events.length).toBe(1);
  });

  it('system_notify appends a notification with internal visibility by default', async () => {
    const res = await fx.client.call('system_notify', { group_id: gid, title: 'Heads up', message: 'build is red', target_actor_id: 'peer1' });
    expect(res.event).toMatchObject({ kind: 'system.notify', data: { kind: 'info', priority: 'normal', im_visibility: 'internal', target_actor_id: 'peer1', title: 'Heads up' } });
    await rejects(fx.client.call('system_notify', { group_id: gid, message: 'x', target_actor_id: 'ghost' }), 'actor_not_found');
  });
});
