import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeliveryConfirmations, type ConfirmationOutcome } from './delivery-confirmations.js';

describe('delivery confirmations (FIFO of expected prompt submits per session)', () => {
  let now = 0;
  let out: ConfirmationOutcome[] = [];
  let c: DeliveryConfirmations;
  const session = {};
  const item = (id: string) => ({ sourceEventId: id, deliveryId: `delivery:peer1:${id}` });
  const brief = () => out.map((o) => `${o.item.sourceEventId}:${o.state}:${o.latencyMs}`);

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

  it('the next prompt after acceptance confirms, with its latency; a later prompt confirms nothing more', () => {
    const e = c.begin('g', 'peer1', session, 'delivery');
    c.accepted('g', 'peer1', e, [item('m1'), item('m2')]);
    now += 400;
    c.promptSubmitted('g', 'peer1', session, 'claude_hook_UserPromptSubmit');
    expect(brief()).toEqual(['m1:confirmed:400', 'm2:confirmed:400']);
    c.promptSubmitted('g', 'peer1', session, 'claude_hook_UserPromptSubmit');
    vi.advanceTimersByTime(20_000);
    expect(out).toHaveLength(2);
  });

  it('no prompt within the window: unconfirmed, once', () => {
    const e = c.begin('g', 'peer1', session, 'delivery');
    c.accepted('g', 'peer1', e, [item('m1')]);
    vi.advanceTimersByTime(14_999);
    expect(out).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(out).toEqual([expect.objectContaining({ state: 'unconfirmed', latencyMs: null, evidence: 'no_UserPromptSubmit_within_15000ms' })]);
    c.promptSubmitted('g', 'peer1', session, 'late');
    expect(out).toHaveLength(1);
  });

  it('the preamble takes the first prompt; a prompt that outran the settle still counts', () => {
    const pre = c.begin('g', 'peer1', session, 'preamble');
    c.accepted('g', 'peer1', pre, []);
    const e = c.begin('g', 'peer1', session, 'delivery');
    c.promptSubmitted('g', 'peer1', session, 'ev'); // the preamble's
    c.promptSubmitted('g', 'peer1', session, 'ev'); // the delivery's, before its accepted settle
    expect(out).toEqual([]);
    c.accepted('g', 'peer1', e, [item('m1')]);
    expect(brief()).toEqual(['m1:confirmed:0']);
  });

  it('prompts of another session, of an unknown actor, or for a submit that was not accepted confirm nothing', () => {
    const e = c.begin('g', 'peer1', session, 'delivery');
    c.promptSubmitted('g', 'peer1', {}, 'other session');
    c.promptSubmitted('g', 'peer2', session, 'other actor');
    c.accepted('g', 'peer1', e, [item('m1')]);
    expect(out).toEqual([]);
    const f = c.begin('g', 'peer1', session, 'delivery');
    c.abandon('g', 'peer1', f);
    vi.advanceTimersByTime(15_000);
    expect(brief()).toEqual(['m1:unconfirmed:null']);
    expect(c.pending('g', 'peer1')).toBe(0);
  });
});
