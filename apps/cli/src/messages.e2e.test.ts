import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

/** An active group with a foreman and two peers (runtimes are not started by these ops yet). */
async function team(): Promise<string> {
  const { group_id } = await cli.json(['group', 'create', '--title', 'team']);
  await cli.json(['use', group_id]);
  for (const id of ['lead', 'peer1', 'peer2']) await cli.json(['actor', 'add', id, '--runtime', 'custom', '--command', 'true']);
  return group_id;
}

describe('cccc send / reply (real daemon)', () => {
  it('--to accepts repeated and comma-separated recipients; the default mode is send', async () => {
    await team();
    const sent = await cli.json(['send', 'hello team', '--to', 'lead,peer1', '--to', 'peer2']);
    expect(sent.message_mode).toBe('send');
    expect(sent.event).toMatchObject({ kind: 'chat.message', by: 'user', data: { text: 'hello team', to: ['lead', 'peer1', 'peer2'], message_mode: 'send' } });

    const line = await cli.cccc(['send', 'second', '--to', 'peer1']);
    expect(line.code).toBe(0);
    expect(line.stdout).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] user → peer1 \(send\) \[[0-9a-f]{8}\]: second\n$/);
  });

  it('each mode maps to its message_mode: send, mail, request-reply → request_reply', async () => {
    await team();
    for (const [cliMode, wire] of [['send', 'send'], ['mail', 'mail'], ['request-reply', 'request_reply']] as const) {
      const sent = await cli.json(['send', `via ${cliMode}`, '--to', 'peer1', '--mode', cliMode]);
      expect(sent.message_mode).toBe(wire);
      expect(sent.event.data.message_mode).toBe(wire);
    }
    const bad = await cli.cccc(['send', 'x', '--mode', 'shout']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--mode/);
  });

  it('request-reply is answered by reply (default recipient: the original sender, quote filled)', async () => {
    await team();
    const ask = await cli.json(['send', 'can you check the build?', '--to', 'peer1', '--mode', 'request-reply']);
    const replied = await cli.json(['reply', ask.event.id, 'build is green', '--by', 'peer1']);
    expect(replied.event.by).toBe('peer1');
    expect(replied.event.data).toMatchObject({ reply_to: ask.event.id, to: ['user'], text: 'build is green' });
    expect(replied.event.data.quote_text).toContain('can you check the build?');

    const mail = await cli.json(['send', 'please review', '--to', 'peer1', '--mode', 'mail', '--by', 'lead']);
    const text = await cli.cccc(['reply', mail.event.id, 'reviewed', '--mode', 'mail'], { CCCC_ACTOR_ID: 'peer1' });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/ peer1 → lead \(mail\) \[[0-9a-f]{8}\] ↩[0-9a-f]{8}: reviewed/);
  });

  it('daemon rule violations print their code and exit 1', async () => {
    await team();
    const unknown = await cli.cccc(['send', 'hi', '--to', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: invalid_recipient: /);
    const mailToUser = await cli.cccc(['send', 'hi', '--to', 'user', '--mode', 'mail', '--by', 'lead']);
    expect(mailToUser.stderr).toMatch(/^error: mail_requires_actor_recipient: /);
    const json = await cli.cccc(['send', '', '--to', 'peer1', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'empty_message' } });
  });
});

describe('cccc inbox / history (real daemon)', () => {
  it('--peek leaves Mail unread; a plain inbox consumes it', async () => {
    await team();
    await cli.json(['send', 'mail one', '--to', 'peer1', '--mode', 'mail']);
    await cli.json(['send', 'mail two', '--to', 'peer1', '--mode', 'mail']);

    for (let i = 0; i < 2; i++) {
      const peek = await cli.cccc(['inbox', '--actor-id', 'peer1', '--peek']);
      expect(peek.code).toBe(0);
      expect(peek.stdout).toContain('mail one');
      expect(peek.stdout).toContain('mail two');
    }
    const limited = await cli.json(['inbox', '--actor-id', 'peer1', '--peek', '--limit', '1']);
    expect(limited.messages.map((m: { data: { text: string } }) => m.data.text)).toEqual(['mail one']);

    // The actor id defaults to the caller: CCCC_ACTOR_ID, as an agent's own shell has it.
    const read = await cli.json(['inbox'], { CCCC_ACTOR_ID: 'peer1' });
    expect(read.messages.map((m: { data: { text: string } }) => m.data.text)).toEqual(['mail one', 'mail two']);
    expect(read.event.kind).toBe('mail.read');
    const empty = await cli.cccc(['inbox', '--actor-id', 'peer1']);
    expect(empty.stdout).toContain('no unread Mail for peer1');

    const noActor = await cli.cccc(['inbox']);
    expect(noActor.code).toBe(1);
    expect(noActor.stderr).toMatch(/^error: missing_actor_id: /);
  });

  it('history shows what an actor sent or received, filtered by mode and query, without consuming', async () => {
    await team();
    await cli.json(['send', 'alpha note', '--to', 'peer1']);
    await cli.json(['send', 'beta mail', '--to', 'peer1', '--mode', 'mail']);
    await cli.json(['send', 'not for peer1', '--to', 'peer2']);

    const all = await cli.cccc(['history', '--actor-id', 'peer1']);
    expect(all.code).toBe(0);
    const lines = all.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('alpha note');
    expect(lines[1]).toContain('beta mail');

    const mail = await cli.json(['history', '--actor-id', 'peer1', '--mode', 'mail']);
    expect(mail.messages.map((m: { data: { text: string } }) => m.data.text)).toEqual(['beta mail']);
    const query = await cli.json(['history', '--actor-id', 'peer1', '--query', 'alpha']);
    expect(query.messages.map((m: { data: { text: string } }) => m.data.text)).toEqual(['alpha note']);
    const page = await cli.json(['history', '--actor-id', 'peer1', '--limit', '1']);
    expect(page).toMatchObject({ has_more: true });
    const older = await cli.json(['history', '--actor-id', 'peer1', '--before', page.messages[0].id]);
    expect(older.messages.map((m: { data: { text: string } }) => m.data.text)).toEqual(['alpha note']);

    expect((await cli.json(['inbox', '--actor-id', 'peer1', '--peek'])).messages).toHaveLength(1);
  });
});

describe('cccc notify (real daemon)', () => {
  it('appends a system.notify event, broadcast or to one actor', async () => {
    await team();
    const broadcast = await cli.json(['notify', 'build is green', '--title', 'CI', '--priority', 'high']);
    expect(broadcast.event).toMatchObject({ kind: 'system.notify', data: { kind: 'info', title: 'CI', message: 'build is green', priority: 'high' } });
    const targeted = await cli.cccc(['notify', 'your turn', '--to', 'peer1', '--kind', 'handoff']);
    expect(targeted.code).toBe(0);
    expect(targeted.stdout).toMatch(/system\.notify by user \[[0-9a-f]{8}\] → peer1 \(handoff\): your turn/);
  });
});

describe('cccc present (real daemon)', () => {
  it('publishes cards, shows the board, clears slots', async () => {
    await team();
    const md = await cli.json(['present', 'publish', '# green', '--title', 'CI', '--summary', 'all pass']);
    expect(md).toMatchObject({ slot_id: 'slot-1', replaced: false, card: { card_type: 'markdown', title: 'CI', summary: 'all pass' }, event: { kind: 'presentation.publish' } });
    const table = await cli.cccc(['present', 'publish', '--slot', 'slot-3', '--table', '[{"k":"v"}]', '--title', 'Numbers']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('published slot-3: [table] Numbers');
    const shown = await cli.cccc(['present', 'show']);
    expect(shown.stdout.split('\n').slice(0, 4)).toEqual([
      expect.stringMatching(/^ slot-1  \[markdown\] CI \(by user, .*\) — all pass$/),
      ' slot-2  (empty)',
      expect.stringMatching(/^\*slot-3  \[table\] Numbers/),
      ' slot-4  (empty)',
    ]);
    const bad = await cli.cccc(['present', 'publish', '--url', 'javascript:alert(1)']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('invalid_card');
    expect((await cli.json(['present', 'clear', 'slot-1'])).cleared_slots).toEqual(['slot-1']);
    expect((await cli.cccc(['present', 'clear', '--all'])).stdout).toContain('cleared slot-3');
    expect((await cli.json(['present', 'show'])).presentation.slots.every((s: { card?: unknown }) => !s.card)).toBe(true);
  });
});
