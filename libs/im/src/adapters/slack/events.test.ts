import { describe, expect, it } from 'vitest';
import { parseSocketFrame, toInboundMessage, toThreadTs } from './events.js';
import { retryAfterMs } from './web-api.js';

describe('Slack Socket Mode frames and message events (pure)', () => {
  it('classifies hello, disconnect, events_api and other envelopes', () => {
    expect(parseSocketFrame('{"type":"hello","num_connections":1}')).toEqual({ kind: 'hello' });
    expect(parseSocketFrame('{"type":"disconnect","reason":"warning"}')).toEqual({ kind: 'disconnect', reason: 'warning' });
    const envelope = { type: 'events_api', envelope_id: 'e1', payload: { event: { type: 'message', ts: '1.2' } } };
    expect(parseSocketFrame(JSON.stringify(envelope))).toEqual({
      kind: 'envelope',
      envelopeId: 'e1',
      event: { type: 'message', ts: '1.2' },
    });
    expect(parseSocketFrame('{"type":"slash_commands","envelope_id":"e2","payload":{}}')).toEqual({
      kind: 'envelope',
      envelopeId: 'e2',
      event: undefined,
    });
    expect(parseSocketFrame('not json')).toEqual({ kind: 'unknown' });
    expect(parseSocketFrame('{"type":"events_api"}')).toEqual({ kind: 'unknown' });
  });

  it('keeps thread_ts as the exact string and derives a stable update id', () => {
    const event = { type: 'message', channel: 'D1', user: 'U1', text: 'hi', ts: '1710000000.000100', thread_ts: '1710000000.100' };
    const message = toInboundMessage(event, 'UBOT');
    expect(message?.thread_id).toBe('1710000000.100');
    expect(message?.update_id).toBe('D1:1710000000.000100');
    expect(message?.ts_ms).toBe(1710000000000);
    expect(toInboundMessage({ ...event, thread_ts: undefined }, 'UBOT')?.thread_id).toBe(0);
  });

  it('drops edits, bot posts, its own posts, empty and malformed events', () => {
    const base = { type: 'message', channel: 'C1', user: 'U1', text: 'hi', ts: '1.000001' };
    expect(toInboundMessage({ ...base, subtype: 'message_changed' }, 'UBOT')).toBeNull();
    expect(toInboundMessage({ ...base, subtype: 'bot_message' }, 'UBOT')).toBeNull();
    expect(toInboundMessage({ ...base, bot_id: 'B1' }, 'UBOT')).toBeNull();
    expect(toInboundMessage({ ...base, user: 'UBOT' }, 'UBOT')).toBeNull();
    expect(toInboundMessage({ ...base, text: '' }, 'UBOT')).toBeNull();
    expect(toInboundMessage({ ...base, type: 'reaction_added' }, 'UBOT')).toBeNull();
    expect(toInboundMessage(undefined, 'UBOT')).toBeNull();
    expect(toInboundMessage({ ...base, subtype: 'file_share' }, 'UBOT')?.text).toBe('hi');
    expect(toInboundMessage({ ...base, subtype: 'thread_broadcast', thread_ts: '0.5' }, 'UBOT')?.thread_id).toBe('0.5');
  });

  it('maps outbound thread ids and Retry-After headers', () => {
    expect(toThreadTs(0)).toBeUndefined();
    expect(toThreadTs('')).toBeUndefined();
    expect(toThreadTs('1710000000.100')).toBe('1710000000.100');
    expect(toThreadTs(1710000000.1)).toBeNull();
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('soon')).toBe(1000);
  });
});
