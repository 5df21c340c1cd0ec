import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Emitter } from '../events.js';
import { watchPasteSettle, type SubmitWait } from './paste-settle.js';

describe('watchPasteSettle (evidence that a paste was taken in)', () => {
  let output: Emitter<string>;
  let how: SubmitWait | undefined;
  const watch = (quietMs: number, maxMs: number) => {
    const w = watchPasteSettle(output.event, { quietMs }, maxMs);
    void w.settled.then((h) => (how = h));
    return w;
  };
  const flush = () => vi.advanceTimersByTimeAsync(0);

  beforeEach(() => {
    vi.useFakeTimers();
    output = new Emitter<string>();
    how = undefined;
  });
  afterEach(() => {
    output[Symbol.dispose]();
    vi.useRealTimers();
  });

  it('output then quiet: settled after the quiet, long before the cap', async () => {
    watch(150, 1500);
    await vi.advanceTimersByTimeAsync(40);
    output.fire('echo of the paste');
    await vi.advanceTimersByTimeAsync(149);
    expect(how).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(how).toBe('output_settled');
  });

  it('each chunk restarts the quiet: a redraw in pieces is waited out', async () => {
    watch(150, 1500);
    for (let i = 0; i < 5; i++) {
      output.fire('piece');
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(how).toBeUndefined();
    await vi.advanceTimersByTimeAsync(50);
    expect(how).toBe('output_settled');
  });

  it('no answer at all, or output that never pauses (a spinner): the configured delay', async () => {
    watch(150, 1500);
    await vi.advanceTimersByTimeAsync(1499);
    expect(how).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(how).toBe('max_delay');

    how = undefined;
    watch(150, 1500);
    for (let t = 0; t < 1500; t += 100) {
      output.fire('spinner frame');
      await vi.advanceTimersByTimeAsync(100);
    }
    await flush();
    expect(how).toBe('max_delay');
  });

  describe('with an echo rule (claude): only the paste\'s own echo counts as the answer', () => {
    const echo = { placeholders: ['[Pasted text #'], waitMs: 5_000 };
    const watchEcho = (pasted: string) => {
      const w = watchPasteSettle(output.event, { quietMs: 150, echo }, 1500, pasted);
      void w.settled.then((h) => (how = h));
      return w;
    };

    it('a start-up redraw then quiet is not evidence; the placeholder then quiet is', async () => {
      watchEcho('[cccc] user → peer1 [event_id=e1]: hi\n\nfooter');
      output.fire('\x1b[2J Claude Code v2 ◐ medium · /effort');
      await vi.advanceTimersByTimeAsync(1000);
      expect(how).toBeUndefined();
      // Words positioned by cursor moves, as claude draws them.
      output.fire('❯\u00a0[Pasted\x1b[1Ctext\x1b[1C#1\x1b[1C+2\x1b[1Clines]');
      await vi.advanceTimersByTimeAsync(149);
      expect(how).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(how).toBe('output_settled');
    });

    it('the pasted text itself, wrapped and in pieces, is the echo too (input read as typed)', async () => {
      watchEcho("[CCCC] You are peer1 (foreman) in group 'delivery matrix'\ngroup_id: g_1");
      output.fire("❯ [CCCC] You are peer1 (fore");
      await vi.advanceTimersByTimeAsync(200);
      expect(how).toBeUndefined();
      output.fire("man) in group\r\n  'delivery matrix'");
      await vi.advanceTimersByTimeAsync(150);
      expect(how).toBe('output_settled');
    });

    it('no echo: Enter goes at the echo wait, not at the shorter configured delay', async () => {
      watchEcho('hello there');
      output.fire('unrelated redraw');
      await vi.advanceTimersByTimeAsync(4_999);
      expect(how).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(how).toBe('max_delay');
    });

    it('after the echo, output that never pauses ends at the configured delay counted from the echo', async () => {
      watchEcho('hello there');
      await vi.advanceTimersByTimeAsync(3_000);
      output.fire('hello there');
      for (let t = 0; t < 1400; t += 100) {
        output.fire('spinner');
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(how).toBeUndefined();
      output.fire('spinner');
      await vi.advanceTimersByTimeAsync(100);
      expect(how).toBe('max_delay');
    });

    describe('a TUI that rewrites only the cells that changed (claude with CI set, after a turn)', () => {
      const pasted = '[cccc] user → peer1 [event_id=aa22]: hi\n\nfooter';
      // The line of the message before was at the same place: only its event id's changed
      // digits are written, so the stream never holds the head whole.
      const delta = '\x1b[5;33H22';
      const watchScreen = (screenText: () => string) => {
        const looks: number[] = [];
        const w = watchPasteSettle(output.event, { quietMs: 150, echo }, 1500, pasted, async () => {
          looks.push(Date.now());
          return screenText();
        });
        void w.settled.then((h) => (how = h));
        return { w, looks };
      };

      it('the screen shows the paste once output is quiet: settled then, not at the echo wait', async () => {
        const { looks } = watchScreen(() => 'header\n❯ [cccc] user → peer1 [event_id=aa22]: hi\n  footer');
        output.fire(delta);
        await vi.advanceTimersByTimeAsync(149);
        expect(looks).toHaveLength(0);
        await vi.advanceTimersByTimeAsync(1);
        expect(looks).toHaveLength(1);
        expect(how).toBe('output_settled');
      });

      it('a screen without this paste is no evidence: the echo wait still decides', async () => {
        const { looks } = watchScreen(() => '❯ [cccc] user → peer1 [event_id=aa11]: hi\n❯ [Pasted text #1 +2 lines]');
        output.fire(delta);
        await vi.advanceTimersByTimeAsync(1_000);
        output.fire('spinner');
        await vi.advanceTimersByTimeAsync(3_000);
        expect(looks).toHaveLength(2); // one look per quiet, none while output keeps coming
        expect(how).toBeUndefined();
        await vi.advanceTimersByTimeAsync(1_000);
        expect(how).toBe('max_delay');
      });

      it('output during the look: the quiet is waited for again before Enter', async () => {
        let release: (text: string) => void = () => {};
        const w = watchPasteSettle(output.event, { quietMs: 150, echo }, 1500, pasted, () => new Promise<string>((r) => (release = r)));
        void w.settled.then((h) => (how = h));
        output.fire(delta);
        await vi.advanceTimersByTimeAsync(150);
        output.fire('cursor blink');
        release('❯ [cccc] user → peer1 [event_id=aa22]: hi');
        await flush();
        expect(how).toBeUndefined();
        await vi.advanceTimersByTimeAsync(150);
        expect(how).toBe('output_settled');
      });
    });

    it('bytes split inside a multi-byte character still match', async () => {
      watchEcho('→ arrow');
      const bytes = Buffer.from('→ arrow');
      output.fire({ data: new Uint8Array(bytes.subarray(0, 1)) } as unknown as string);
      output.fire({ data: new Uint8Array(bytes.subarray(1)) } as unknown as string);
      await vi.advanceTimersByTimeAsync(150);
      expect(how).toBe('output_settled');
    });
  });

  it('disposing ends the watch and its subscription', async () => {
    const w = watch(150, 1500);
    w[Symbol.dispose]();
    await flush();
    expect(how).toBe('max_delay');
    output.fire('late');
    await vi.advanceTimersByTimeAsync(2000);
    expect(how).toBe('max_delay');
  });
});
