import { describe, expect, it } from 'vitest';
import { GrokTurnCorrelator, grokRecordOf, type GrokRecord } from './grok-correlator.js';

// The §8.4 Grok correlation rules, one by one, on the pure correlator.

const live = (kind: string, promptId?: string, extra: Partial<GrokRecord> = {}): GrokRecord => ({ kind, replay: false, ...(promptId ? { promptId } : {}), ...extra });

describe('Grok turn correlation (§8.4)', () => {
  it('live _meta.promptId activity binds to the awaiting controlled turn and admits it once', () => {
    const c = new GrokTurnCorrelator();
    c.controlledSent('t1');
    expect(c.record(live('user_message_chunk', 'p1', { seq: 4 }))).toEqual({ action: 'admit', turnId: 't1', origin: 'controlled' });
    expect(c.record(live('agent_message_chunk', 'p1'))).toMatchObject({ action: 'ignore', why: 'already admitted' });
    expect(c.activeTurnId).toBe('t1');
  });

  it('a matching durable turn_completed settles the turn; a duplicate terminal changes nothing', () => {
    const c = new GrokTurnCorrelator();
    c.controlledSent('t1');
    c.record(live('agent_message_chunk', 'p1'));
    expect(c.record(live('turn_completed', 'p1', { stopReason: 'end_turn' }))).toEqual({ action: 'settle', turnId: 't1', status: 'completed', admitted: true });
    expect(c.record(live('turn_completed', 'p1'))).toMatchObject({ action: 'ignore', why: 'duplicate terminal' });
    expect(c.activeTurnId).toBeNull();
  });

  it('_x.ai/session/update records parse like session/update (promptId and seq from _meta)', () => {
    const parsed = grokRecordOf({ sessionId: 's', update: { sessionUpdate: 'turn_completed', stopReason: 'cancelled', _meta: { promptId: 'p9', seq: 12 } } }, false);
    expect(parsed).toEqual({ sessionId: 's', record: { kind: 'turn_completed', replay: false, promptId: 'p9', seq: 12, stopReason: 'cancelled' } });
    expect(grokRecordOf({ sessionId: 's', _meta: { promptId: 'p' }, update: { sessionUpdate: 'agent_message_chunk' } }, true)?.record).toMatchObject({ promptId: 'p', replay: true });
    expect(grokRecordOf({ update: {} }, false)).toBeNull();
  });

  it('native input (a new promptId user record with nothing awaiting) is its own turn, settled by its turn_completed', () => {
    const c = new GrokTurnCorrelator();
    const admitted = c.record(live('user_message_chunk', 'n1'));
    expect(admitted).toMatchObject({ action: 'admit', origin: 'native' });
    const id = (admitted as { turnId: string }).turnId;
    expect(c.record(live('agent_message_chunk', 'n1'))).toMatchObject({ action: 'ignore' });
    expect(c.record(live('turn_completed', 'n1'))).toEqual({ action: 'settle', turnId: id, status: 'completed', admitted: true });
  });

  it('send_now cancellation settles the old turn first; its delayed prompt response, late activity and terminal never touch the new turn', () => {
    const c = new GrokTurnCorrelator();
    c.controlledSent('old');
    c.record(live('agent_message_chunk', 'p-old'));
    expect(c.cancel()).toEqual({ action: 'settle', turnId: 'old', status: 'interrupted', admitted: true });
    // The next input is associated only after that.
    c.controlledSent('new');
    expect(c.record(live('agent_message_chunk', 'p-old'))).toMatchObject({ action: 'ignore', why: 'prompt already settled' });
    expect(c.promptResponse('old', 'cancelled')).toMatchObject({ action: 'ignore', why: 'late prompt response' });
    expect(c.record(live('turn_completed', 'p-old', { stopReason: 'cancelled' }))).toMatchObject({ action: 'ignore', why: 'duplicate terminal' });
    expect(c.activeTurnId).toBe('new');
    expect(c.record(live('user_message_chunk', 'p-new'))).toEqual({ action: 'admit', turnId: 'new', origin: 'controlled' });
    expect(c.record(live('turn_completed', 'p-new'))).toMatchObject({ action: 'settle', turnId: 'new' });
  });

  it('a turn ending before prompt-bearing activity may settle on the session sequence after its user record, never otherwise', () => {
    const c = new GrokTurnCorrelator();
    c.controlledSent('t1');
    // The persisted user record without promptId: a boundary, not admission.
    expect(c.record(live('user_message_chunk', undefined, { seq: 7 }))).toMatchObject({ action: 'ignore' });
    expect(c.record(live('turn_completed', undefined, { seq: 7 }))).toMatchObject({ action: 'ignore', why: 'uncorrelated terminal' });
    expect(c.record(live('turn_completed'))).toMatchObject({ action: 'ignore', why: 'uncorrelated terminal' });
    expect(c.record(live('turn_completed', undefined, { seq: 8 }))).toEqual({ action: 'settle', turnId: 't1', status: 'completed', admitted: false });
  });

  it('replay records admit neither controlled nor native input, and settle nothing', () => {
    const c = new GrokTurnCorrelator();
    expect(c.record({ kind: 'user_message_chunk', promptId: 'old', replay: true })).toMatchObject({ action: 'ignore', why: 'replay' });
    expect(c.activeTurnId).toBeNull();
    c.controlledSent('t1');
    expect(c.record({ kind: 'agent_message_chunk', promptId: 'old', replay: true })).toMatchObject({ action: 'ignore', why: 'replay' });
    expect(c.record({ kind: 'turn_completed', promptId: 'old', replay: true })).toMatchObject({ action: 'ignore', why: 'replay' });
    expect(c.activeTurnId).toBe('t1');
  });

  it('uncorrelated prompt_complete is non-authoritative; a correlated one settles', () => {
    const c = new GrokTurnCorrelator();
    c.controlledSent('t1');
    expect(c.record(live('prompt_complete'))).toMatchObject({ action: 'ignore', why: 'uncorrelated prompt_complete' });
    expect(c.record(live('prompt_complete', 'unknown'))).toMatchObject({ action: 'ignore', why: 'uncorrelated prompt_complete' });
    c.record(live('agent_message_chunk', 'p1'));
    expect(c.record(live('prompt_complete', 'p1'))).toMatchObject({ action: 'settle', turnId: 't1' });
  });

  it('the prompt response settles only its own unsettled turn', () => {
    const c = new GrokTurnCorrelator();
    c.controlledSent('t1');
    expect(c.promptResponse('t1', 'end_turn')).toEqual({ action: 'settle', turnId: 't1', status: 'completed', admitted: false });
    c.controlledSent('t2');
    expect(c.promptResponse('t1', 'end_turn')).toMatchObject({ action: 'ignore' });
    expect(c.activeTurnId).toBe('t2');
  });
});
