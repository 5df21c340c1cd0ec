import { describe, expect, it } from 'vitest';
import { OutputRing } from '../ring/output-ring.js';
import { spawnNodePty } from '../pty/node-pty-session.js';
import { fakeAgentArgv } from '../testing/fake-agent-path.js';
import { OutputCollector, waitForExit } from '../testing/collect.js';
import { terminalClear, terminalHistory, terminalReplay, terminalScreenText, terminalSince, terminalSnapshot, terminalTail, renderAttachSnapshot } from './terminal-ops.js';

const size = { cols: 120, rows: 40 };
const sourceOf = (text: string | Buffer, capBytes?: number) => {
  const ring = new OutputRing(capBytes ? { capBytes } : {});
  ring.append(typeof text === 'string' ? Buffer.from(text) : text);
  return { ring, ...size };
};

describe('terminal ops', () => {
  it('screen text: the visible rows as drawn, cell updates applied, no scrollback, from a bounded tail', async () => {
    // Row 2 drawn whole, then one cell rewritten in place: the screen has the new line whole.
    const drawn = '\x1b[2;1H❯ user → peer1 [id=aa11]: hi\x1b[2;22H2\x1b[2;23H2';
    expect((await terminalScreenText(sourceOf(drawn))).split('\n')[1]).toBe('❯ user → peer1 [id=aa22]: hi');
    // Scrolled-off lines are not on the screen.
    const scrolled = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\r\n');
    const rows = (await terminalScreenText(sourceOf(scrolled))).split('\n');
    expect(rows).toHaveLength(size.rows);
    expect(rows[0]).toBe('line 10');
    // Only the last limitBytes are rendered, starting on a character boundary ('é' is 2 bytes).
    const bounded = await terminalScreenText(sourceOf('old text\r\néa new line'), 'a new line'.length + 1);
    expect(bounded.split('\n')[0]).toBe('a new line');
  });

  it('renders real PTY output of the fake agent', async () => {
    const ring = new OutputRing();
    const pty = spawnNodePty({ argv: fakeAgentArgv(['--exit-after', '2']), cwd: process.cwd(), env: process.env as Record<string, string>, ...size });
    pty.onData((d) => ring.append(d));
    using out = new OutputCollector(pty);
    await out.waitFor('fake-agent> ');
    await pty.write('\x1b[200~hello there\x1b[201~');
    await pty.write('\r');
    await out.waitFor(/received: hello there[\s\S]*fake-agent> $/);
    const tail = await terminalTail({ ring, ...size });
    expect(tail.text).toContain('fake-agent ready');
    expect(tail.text).toContain('[fake-agent] received: hello there');
    expect(tail.text.endsWith('fake-agent>')).toBe(true);
    expect(tail.end_cursor).toBe(ring.endCursor);
    const exited = waitForExit(pty);
    await pty.write('bye\r');
    await exited;
    // After exit the app left the alternate screen: the normal screen is empty again.
    const after = await terminalTail({ ring, ...size });
    expect(after.text).not.toContain('fake-agent ready');
  });

  it('applies max_chars after rendering, never to the raw stream', async () => {
    // A long line later redrawn in place: the raw tail would be escape-sequence soup.
    const raw = 'A'.repeat(100) + '\r\n' + 'status: working' + '\x1b[1;1H\x1b[2K' + 'TOP';
    const tail = await terminalTail(sourceOf(raw), { maxChars: 10 });
    expect(tail.text).toBe('s: working');
    const full = await terminalTail(sourceOf(raw), { maxChars: 1000 });
    expect(full.text).toBe('TOP\nstatus: working');
  });

  it('compact and strip_ansi options', async () => {
    const raw = '\x1b[31mred\x1b[0m   \r\n\r\n\r\n\r\nafter\r\n';
    expect((await terminalTail(sourceOf(raw), { compact: true })).text).toBe('red\n\nafter');
    expect((await terminalTail(sourceOf(raw), { compact: false })).text).toBe('red   \n\n\n\nafter');
    const ansi = await terminalTail(sourceOf(raw), { stripAnsi: false });
    expect(ansi.text).toContain('\x1b[31mred');
  });

  it('renders a full 10 MiB backlog', async () => {
    const lines: string[] = [];
    let n = 0;
    let i = 0;
    while (n < 10 * 1024 * 1024) {
      const l = `\x1b[32m${i}\x1b[0m the quick brown fox jumps over the lazy dog ${'x'.repeat(i % 50)}\r\n`;
      lines.push(l);
      n += l.length;
      i++;
    }
    const source = sourceOf(lines.join(''));
    expect(source.ring.retainedBytes).toBe(10 * 1024 * 1024);
    const t = performance.now();
    const tail = await terminalTail(source, { maxChars: 2000 });
    const ms = performance.now() - t;
    const last = tail.text.split('\n').pop()!;
    expect(last.startsWith(`${i - 1} the quick`)).toBe(true);
    expect(ms).toBeLessThan(5000);
  }, 20_000);

  it('replay pages stop at the fixed replay_end_cursor', () => {
    const source = sourceOf('0123456789');
    const first = terminalReplay(source, { limitBytes: 4 });
    expect(first.replay_end_cursor).toBe(10);
    expect(first.history).toMatchObject({ data: '0123', start_cursor: 0, end_cursor: 4, has_more: true });
    source.ring.append(Buffer.from('LIVE'));
    let page = first.history;
    let data = page.data;
    while (page.has_more) {
      page = terminalReplay(source, { after: page.end_cursor, endCursor: first.replay_end_cursor, limitBytes: 4 }).history;
      data += page.data;
    }
    expect(data).toBe('0123456789');
    expect(page.end_cursor).toBe(10);
  });

  it('replay captures a UTF-8-complete end', () => {
    const euro = Buffer.from('€');
    const source = sourceOf(Buffer.concat([Buffer.from('ab'), euro.subarray(0, 1)]));
    expect(terminalReplay(source).replay_end_cursor).toBe(2);
  });

  it('since reports expired cursors and UTF-8-complete pages', () => {
    const source = sourceOf('héllo wörld', 6);
    const r = terminalSince(source, { after: 0 });
    expect(r.history.cursor_expired).toBe(true);
    expect(r.history.data).toBe('wörld'.slice(-5));
  });

  it('history pins render_before and expires when clear overtakes it', async () => {
    const body = Array.from({ length: 50 }, (_, k) => `line ${k}\r\n`).join('');
    const source = sourceOf(body);
    const first = await terminalHistory(source, { limitBytes: 100 });
    expect(first.has_more).toBe(true);
    expect(first.text.split('\n').pop()).toBe('line 49');
    source.ring.append(Buffer.from('newer output\r\n'));
    const second = await terminalHistory(source, { before: first.start_cursor, renderBefore: first.end_cursor, limitBytes: 100 });
    expect(second.end_cursor).toBe(first.end_cursor);
    expect(second.start_cursor).toBeLessThan(first.start_cursor);
    expect(second.text).not.toContain('newer output');
    expect(second.text.endsWith(first.text.split('\n').slice(-3).join('\n'))).toBe(true);
    terminalClear(source);
    const expired = await terminalHistory(source, { before: second.start_cursor, renderBefore: first.end_cursor });
    expect(expired).toMatchObject({ text: '', cursor_expired: true, has_more: false, start_cursor: first.end_cursor, end_cursor: first.end_cursor });
  });

  it('snapshot is bounded and reports its raw range', async () => {
    const body = Array.from({ length: 200 }, (_, k) => `row ${k}\r\n`).join('');
    const snap = await terminalSnapshot(sourceOf(body), { limitBytes: 100 });
    expect(Buffer.byteLength(snap.data)).toBeLessThanOrEqual(100);
    expect(snap).toMatchObject({ start_cursor: 0, end_cursor: Buffer.byteLength(body) });
  });

  it('attach snapshot carries the cursor and size', async () => {
    const snap = await renderAttachSnapshot(sourceOf('hello\r\n'));
    expect(snap).toMatchObject({ cursor: 7, cols: 120, rows: 40 });
    expect(snap.data).toContain('hello');
    expect(snap.bytes).toBe(Buffer.byteLength(snap.data));
  });
});
