import { describe, expect, it } from 'vitest';
import { createFakePtySpawner, type FakePtySession } from '../testing/fake-pty.js';
import { getRuntime } from '../runtime/catalog.js';
import { ActorTerminal } from './actor-terminal.js';

// Submit by evidence (issue 19): with a runtime's paste-settle rule the submit key follows the
// terminal's answer to the paste, not a fixed wait; the configured delay stays the upper bound.

const launch = { argv: ['agent'], env: {}, cwd: '/' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function setup() {
  const terminal = new ActorTerminal({ actorId: 'peer1', spawner: createFakePtySpawner(() => {}) });
  const pty = terminal.start(launch).pty as FakePtySession;
  return { terminal, pty, keys: () => pty.writes.map((w) => Buffer.from(w).toString()) };
}

describe('ActorTerminal.submit with pasteSettle', () => {
  it('writes Enter only after the paste was answered and output went quiet', async () => {
    const { terminal, pty, keys } = setup();
    const done = terminal.submit('hello', { submitDelayMs: 5_000, pasteSettle: { quietMs: 50 } });
    await sleep(30);
    expect(keys()).toEqual(['hello']); // no answer yet: no Enter
    pty.emitOutput('hello'); // the TUI's echo of the paste
    await pty.flushOutput();
    await sleep(10);
    expect(keys()).toEqual(['hello']); // answered, not yet quiet
    expect(await done).toMatchObject({ outcome: 'accepted' });
    expect(keys()).toEqual(['hello', '\r']);
  });

  it('no answer: Enter after the configured delay, as without evidence', async () => {
    const { terminal, keys } = setup();
    const done = terminal.submit('hello', { submitDelayMs: 150, pasteSettle: { quietMs: 20 } });
    await sleep(80);
    expect(keys()).toEqual(['hello']);
    await done;
    expect(keys()).toEqual(['hello', '\r']);
  });

  it('repeat keys keep their gap after the evidence; submit none waits for nothing', async () => {
    const { terminal, pty, keys } = setup();
    const done = terminal.submit('go', { submitDelayMs: 5_000, pasteSettle: { quietMs: 20 }, submitRepeat: { count: 2, gapMs: 10 } });
    pty.emitOutput('go');
    await done;
    expect(keys()).toEqual(['go', '\r', '\r']);
    const t = performance.now();
    await terminal.submit('x', { submit: 'none', submitDelayMs: 5_000, pasteSettle: { quietMs: 20 } });
    expect(performance.now() - t).toBeLessThan(1_000);
  });

  it("claude's rule: a start-up redraw and its quiet do not release Enter; the paste's placeholder does", async () => {
    const claude = getRuntime('claude').pasteSettle!;
    expect(claude.echo).toBeDefined();
    const { terminal, pty, keys } = setup();
    const done = terminal.submit('[cccc] user → peer1 [event_id=e1]: hi\n\nfooter line', { submitDelayMs: 1_500, pasteSettle: { ...claude, echo: { ...claude.echo!, waitMs: 5_000 } } });
    pty.emitOutput('\x1b[H Claude Code v2.1.328 ◐ medium · /effort'); // its own start-up redraw
    await pty.flushOutput();
    await sleep(400);
    expect(keys()).toHaveLength(1); // quiet, but no echo of the paste: no Enter
    pty.emitOutput('❯ [Pasted\x1b[1Ctext\x1b[1C#1\x1b[1C+2\x1b[1Clines]');
    await pty.flushOutput();
    expect(await done).toMatchObject({ outcome: 'accepted' });
    expect(keys().at(-1)).toBe('\r');
  });

  it("claude's rule on a TUI that redraws only changed cells: the rendered screen is the evidence", async () => {
    const claude = getRuntime('claude').pasteSettle!;
    const { terminal, pty, keys } = setup();
    // The message before, drawn whole on row 3.
    pty.emitOutput('\x1b[3;1H❯ [cccc] user → peer1 [event_id=0123456789abcdef0123456789abcdef]: hi');
    await pty.flushOutput();
    const started = performance.now();
    const done = terminal.submit('[cccc] user → peer1 [event_id=0123456789abcdef0123456789abcdee]: hi\n\nfooter', { submitDelayMs: 1_500, pasteSettle: { ...claude, echo: { ...claude.echo!, waitMs: 5_000 } } });
    await sleep(30);
    // The next one at the same place: only the one cell that differs is written.
    pty.emitOutput('\x1b[3;64He');
    await pty.flushOutput();
    expect(await done).toMatchObject({ outcome: 'accepted' });
    expect(keys().at(-1)).toBe('\r');
    expect(performance.now() - started).toBeLessThan(3_000); // not the echo rule's 5 s
  });
});


describe('ActorTerminal.submit into a session being stopped (markEnding)', () => {
  it('a submit waiting for the echo gives up at once: no Enter, failed, so the next session gets it', async () => {
    const claude = getRuntime('claude').pasteSettle!;
    const { terminal, keys } = setup();
    const started = performance.now();
    const done = terminal.submit('first line\nsecond line', { submitDelayMs: 1_500, bracketedPaste: true, pasteSettle: claude });
    await sleep(50);
    terminal.session!.markEnding();
    expect(await done).toEqual({ outcome: 'failed', reason: 'session_ending' });
    expect(performance.now() - started).toBeLessThan(1_000); // not the echo rule's 8 s
    expect(keys()).toHaveLength(1);
    expect(keys()[0]).toContain('second line');
  });

  it('the fixed delay ends too; an unbracketed multi-line paste may have been submitted line by line: ambiguous', async () => {
    const { terminal, keys } = setup();
    const done = terminal.submit('one\ntwo', { submitDelayMs: 5_000, bracketedPaste: false });
    await sleep(30);
    terminal.session!.markEnding();
    expect(await done).toMatchObject({ outcome: 'ambiguous', reason: 'session_ending' });
    expect(keys()).toEqual(['one\ntwo']);
  });

  it('a session already ending takes no paste at all', async () => {
    const { terminal, keys } = setup();
    terminal.session!.markEnding();
    expect(await terminal.submit('late', { submitDelayMs: 100 })).toEqual({ outcome: 'failed', reason: 'session_ending' });
    expect(keys()).toEqual([]);
  });

  it('an Enter already written stands: ending after it changes nothing', async () => {
    const { terminal, pty, keys } = setup();
    const done = terminal.submit('hello', { submitDelayMs: 5_000, pasteSettle: { quietMs: 20 } });
    pty.emitOutput('hello');
    expect(await done).toMatchObject({ outcome: 'accepted' });
    terminal.session!.markEnding();
    expect(keys()).toEqual(['hello', '\r']);
  });
});
