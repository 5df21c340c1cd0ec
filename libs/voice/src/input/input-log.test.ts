import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inputView } from './input-envelope.js';
import { InputLog } from './input-log.js';

describe('InputLog', () => {
  const home = mkdtempSync(join(tmpdir(), 'voice-input-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const log = new InputLog(home, 'g_input0000001');
  const item = (id: string, text: string) => ({ kind: 'voice_instruction', input_append_id: id, document_path: 'd/a.md', text, by: 'user' });

  it('appends with increasing seq; the same input_append_id is answered from the whole log, not appended', async () => {
    const a = await log.append(item('x1', 'one'));
    const b = await log.append(item('x2', 'two'));
    expect([a.record.seq, b.record.seq, a.created, b.created]).toEqual([1, 2, true, true]);
    const again = await log.append(item('x1', 'one'));
    expect(again).toMatchObject({ created: false, record: { input_id: a.record.input_id } });
    expect(again.notifyEventId).toBeUndefined();
    await log.markNotified(a.record.input_id, 'ev1');
    expect((await log.append(item('x1', 'one'))).notifyEventId).toBe('ev1');
  });

  it('reads unread inputs once, ignoring a torn last line', async () => {
    appendFileSync(log.logPath, '{"seq":99,"torn');
    expect(await log.hasUnread()).toBe(true);
    const unread = await log.readUnread();
    expect(unread.map((r) => r.text)).toEqual(['one', 'two']);
    expect(await log.readUnread()).toEqual([]);
    expect(await log.hasUnread()).toBe(false);
    // The next append starts a fresh line after the torn one.
    const c = await log.append(item('x3', 'three'));
    expect(c.record.seq).toBe(3);
    expect((await log.readUnread()).map((r) => r.text)).toEqual(['three']);
  });

  it('builds the envelope per document', () => {
    const v = inputView(
      [{ seq: 1, input_id: 'i', kind: 'voice_instruction', document_path: 'd/a.md', text: 'do it', by: 'user', created_at: 't', request_id: 'r1' }],
      new Map([['d/a.md', { document_path: 'd/a.md', title: 'A', filename: 'a.md' }]]),
    );
    expect(v).toMatchObject({ item_count: 1, document_count: 1, has_new_input: true, input_batches: [{ document_path: 'd/a.md', title: 'A', kinds: ['voice_instruction'], intent_hints: ['user_instruction'] }] });
    expect(v.input_text).toBe('## d/a.md\n- [voice_instruction r1] do it');
  });
});
