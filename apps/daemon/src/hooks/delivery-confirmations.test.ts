import { promptMarks } from '@cccc/ipc-protocol/node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeliveryConfirmations, type ConfirmationOutcome } from './delivery-confirmations.js';

describe('delivery confirmations (each submit confirmed by its own prompt hook)', () => {
  let now = 0;
  let out: ConfirmationOutcome[] = [];
  let c: DeliveryConfirmations;
  const session = {};
  const item = (id: string) => ({ sourceEventId: id, deliveryId: `delivery:peer1:${id}` });
  const batch = (id: string) => `[cccc] user → peer1 [event_id=${id}]: hello\nsecond line`;
  const prompt = (id: string) => batch(id).replace('\n', '\r\n');
  const brief = () => out.map((o) => `${o.item.sourceEventId}:${o.state}:${o.latencyMs}`);
  const deliver = (id: string) => {
    const e = c.begin('g', 'peer1', session, 'delivery', batch(id));
    c.accepted('g', 'peer1', e, [item(id)]);
    return e;
  };

  beforeEach(() => {
    vi.useFakeTimers();
    now = 1000;
    out = [];
    c = new DeliveryConfirmations({ windowMs: 15_000, record: (o) => out.push(o), now: () => now });
  });
  afterEach(() => {
    c[Symbol.dispose]();
    vi.useRealTimers();
  });

  it('the prompt hook carrying the batch confirms every item of it, with its latency; a repeat confirms nothing more', () => {
    const e = c.begin('g', 'peer1', session, 'delivery', batch('m1'));
    c.accepted('g', 'peer1', e, [item('m1'), item('m2')]);
    now += 400;
    c.promptSubmitted('g', 'peer1', session, 'claude_hook_UserPromptSubmit', promptMarks(prompt('m1')));
    expect(brief()).toEqual(['m1:confirmed:400', 'm2:confirmed:400']);
    c.promptSubmitted('g', 'peer1', session, 'claude_hook_UserPromptSubmit', promptMarks(prompt('m1')));
    vi.advanceTimersByTime(20_000);
    expect(out).toHaveLength(2);
  });

  it('no prompt within the window: unconfirmed, once', () => {
    deliver('m1');
    vi.advanceTimersByTime(14_999);
    expect(out).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(out).toEqual([expect.objectContaining({ state: 'unconfirmed', latencyMs: null, evidence: 'no_UserPromptSubmit_within_15000ms' })]);
    c.promptSubmitted('g', 'peer1', session, 'late', promptMarks(prompt('m1')));
    expect(out).toHaveLength(1);
  });

  it("the preamble's prompt and a user's typed prompt stand in for no delivery; a prompt that outran the settle still counts", () => {
    const pre = c.begin('g', 'peer1', session, 'preamble', '[CCCC] You are peer1 (foreman)\nmore');
    c.accepted('g', 'peer1', pre, []);
    const e = c.begin('g', 'peer1', session, 'delivery', batch('m1'));
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks('something the user typed'));
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m1'))); // the delivery's, before its accepted settle
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks('[CCCC] You are peer1 (foreman)\nmore')); // the preamble's, late
    expect(out).toEqual([]);
    expect(c.pending('g', 'peer1')).toBe(1);
    c.accepted('g', 'peer1', e, [item('m1')]);
    expect(brief()).toEqual(['m1:confirmed:0']);
  });

  // The real-claude bug this guards: the first delivery's prompt hook was lost (rejected), so the
  // next prompt hook, the second delivery's, confirmed the first one and left the second open.
  it('an expectation left open never takes a later delivery\'s prompt hook', () => {
    deliver('m1');
    now += 100;
    deliver('m2');
    now += 200;
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m2')));
    expect(brief()).toEqual(['m2:confirmed:200']);
    vi.advanceTimersByTime(15_000);
    expect(brief()).toEqual(['m2:confirmed:200', 'm1:unconfirmed:null']);
  });

  it('queued prompts merged into one submit confirm each delivery they carry', () => {
    deliver('m1');
    deliver('m2');
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(`${prompt('m1')}\n\n${prompt('m2')}`));
    expect(brief()).toEqual(['m1:confirmed:0', 'm2:confirmed:0']);
  });

  it('a runtime that reports no prompt text: the oldest open expectation of the session takes it', () => {
    const pre = c.begin('g', 'peer1', session, 'preamble', 'preamble');
    c.accepted('g', 'peer1', pre, []);
    deliver('m1');
    c.promptSubmitted('g', 'peer1', session, 'ev', null); // the preamble's
    expect(out).toEqual([]);
    c.promptSubmitted('g', 'peer1', session, 'ev', null);
    expect(brief()).toEqual(['m1:confirmed:0']);
  });

  it('prompts of another session, of an unknown actor, or for a submit that was not accepted confirm nothing', () => {
    const e = c.begin('g', 'peer1', session, 'delivery', batch('m1'));
    c.promptSubmitted('g', 'peer1', {}, 'other session', promptMarks(prompt('m1')));
    c.promptSubmitted('g', 'peer2', session, 'other actor', promptMarks(prompt('m1')));
    c.accepted('g', 'peer1', e, [item('m1')]);
    expect(out).toEqual([]);
    const f = c.begin('g', 'peer1', session, 'delivery', batch('m2'));
    c.abandon('g', 'peer1', f);
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m2')));
    vi.advanceTimersByTime(15_000);
    expect(brief()).toEqual(['m1:unconfirmed:null']);
    expect(c.pending('g', 'peer1')).toBe(0);
  });

  it('settled: at once with nothing begun; waits for every submit begun before the call (not later ones), answering whether one was taken up; a bound', async () => {
    const log: string[] = [];
    log.push(await c.settled('g', 'peer1', session, 5_000));
    const typing = c.begin('g', 'peer1', session, 'delivery', batch('m0'));
    void c.settled('g', 'peer1', session, 5_000).then((how) => log.push(`m0 ${how}`));
    deliver('m9'); // begun after the call: not waited for
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log).toEqual(['settled']);
    c.abandon('g', 'peer1', typing);
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['settled', 'm0 settled']);
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m9')));
    const e = c.begin('g', 'peer1', session, 'delivery', batch('m1'));
    void c.settled('g', 'peer1', session, 5_000).then((how) => log.push(`m1 ${how}`));
    void c.settled('g', 'peer1', {}, 5_000).then((how) => log.push(`other session ${how}`));
    c.accepted('g', 'peer1', e, [item('m1')]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log.slice(2)).toEqual(['other session settled']);
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m1')));
    await vi.advanceTimersByTimeAsync(0);
    expect(log.slice(2)).toEqual(['other session settled', 'm1 taken_up']);
    deliver('m2');
    void c.settled('g', 'peer1', session, 5_000).then((how) => log.push(`m2 ${how}`));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(log).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(log.at(-1)).toBe('m2 bound');
  });

  it('a session that ended: what it was submitted is unconfirmed at once, and so is a submit accepted after the end; a confirmed one stays confirmed', () => {
    deliver('m1');
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m1')));
    deliver('m2');
    const late = c.begin('g', 'peer1', session, 'delivery', batch('m3'));
    const other = {};
    const e = c.begin('g', 'peer1', other, 'delivery', batch('m4'));
    c.accepted('g', 'peer1', e, [item('m4')]);
    c.sessionEnded('g', 'peer1', session);
    expect(out.map((o) => `${o.item.sourceEventId}:${o.state}:${o.evidence}`)).toEqual([
      'm1:confirmed:ev',
      'm2:unconfirmed:session_ended_before_UserPromptSubmit',
    ]);
    c.accepted('g', 'peer1', late, [item('m3')]);
    expect(brief().slice(2)).toEqual(['m3:unconfirmed:null']);
    expect(c.pending('g', 'peer1')).toBe(1); // the other session's delivery is still open
  });

  it("the agent's own part of the latency: accepted → when it ran its prompt hook, if the hook said (a start after it was taken is not believed)", () => {
    const e = c.begin('g', 'peer1', session, 'delivery', batch('m1'));
    c.accepted('g', 'peer1', e, [item('m1')]);
    now += 400;
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m1')), now - 280);
    deliver('m2');
    now += 100;
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m2')), now + 5_000);
    deliver('m3');
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m3')));
    expect(out.map((o) => [o.item.sourceEventId, o.latencyMs, o.promptHookMs])).toEqual([
      ['m1', 400, 120],
      ['m2', 100, null],
      ['m3', 0, null],
    ]);
  });

  it('turnTakenUp: at once with no prompt taken; after a taken prompt, at its turn end (already past or to come); a bound', async () => {
    const log: string[] = [];
    await c.turnTakenUp('g', 'peer1', session, 3_000).then(() => log.push('no prompt'));
    deliver('m1');
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m1')));
    void c.turnTakenUp('g', 'peer1', session, 3_000).then(() => log.push('m1 turn over'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log).toEqual(['no prompt']);
    now += 1;
    c.turnEnded('g', 'peer1', session);
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['no prompt', 'm1 turn over']);
    await c.turnTakenUp('g', 'peer1', session, 3_000).then(() => log.push('already over'));
    now += 1;
    deliver('m2');
    c.promptSubmitted('g', 'peer1', session, 'ev', promptMarks(prompt('m2')));
    c.turnEnded('g', 'peer2', session); // another actor's turn ends nothing here
    void c.turnTakenUp('g', 'peer1', session, 3_000).then(() => log.push('bound'));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(log).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(log.at(-1)).toBe('bound');
  });
});
