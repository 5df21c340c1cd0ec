import { describe, expect, it } from 'vitest';
// The terminal WebSocket framing of REFERENCE_NOTES §8.4 (pure; the e2e tests drive it live).
import { OP, decodeFrame, encodeAck, encodeInput, encodeResize, termUrl } from './term-protocol';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const frame = (op: number, body: string | Uint8Array) => {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return Uint8Array.from([op, ...bytes]);
};

describe('terminal frames', () => {
  it('client frames carry a one-byte ASCII opcode: 0 input bytes, 2 resize JSON, 5 ack JSON', () => {
    const input = encodeInput('héllo\r');
    expect(input[0]).toBe(0x30);
    expect(text(input.subarray(1))).toBe('héllo\r');
    expect(encodeInput(Uint8Array.from([0x1b, 0x5b]))).toEqual(Uint8Array.from([0x30, 0x1b, 0x5b]));
    const resize = encodeResize(120, 40);
    expect(String.fromCharCode(resize[0]!)).toBe('2');
    expect(JSON.parse(text(resize.subarray(1)))).toEqual({ cols: 120, rows: 40 });
    const ack = encodeAck(1_234_567);
    expect(String.fromCharCode(ack[0]!)).toBe('5');
    expect(JSON.parse(text(ack.subarray(1)))).toEqual({ cursor: 1_234_567 });
  });

  it('server frames decode by opcode; output and snapshot stay raw bytes', () => {
    const raw = Uint8Array.from([0x1b, 0x5b, 0x32, 0x4a, 0xe2, 0x82]); // a split UTF-8 sequence stays as is
    expect(decodeFrame(frame(OP.output, raw))).toEqual({ op: 'output', data: raw });
    expect(decodeFrame(frame(OP.snapshot, raw).buffer)).toEqual({ op: 'snapshot', data: raw });
    const hs = { terminal_mode: 'control', terminal_writable: true, replay_cursor: 5, replay_end_cursor: 5, initial_output: { kind: 'snapshot', bytes: 10, cursor: 5, cols: 80, rows: 24 } };
    expect(decodeFrame(frame(OP.handshake, JSON.stringify(hs)))).toEqual({ op: 'handshake', handshake: hs });
    expect(decodeFrame(frame(OP.writable, '{"terminal_writable":false}'))).toEqual({ op: 'writable', writable: false });
    expect(decodeFrame(frame(OP.inputError, '{"code":"terminal_not_writer","message":"no"}'))).toEqual({
      op: 'inputError',
      error: { code: 'terminal_not_writer', message: 'no' },
    });
    expect(decodeFrame(frame(OP.inputError, 'not json'))).toEqual({ op: 'inputError', error: {} });
    expect(decodeFrame(frame(0x39, ''))).toEqual({ op: 'unknown', code: 0x39 });
  });

  it('the attach URL negotiates snapshot_v1 and ack_v1, follows the page scheme and sends a size hint only with both dimensions', () => {
    const u = new URL(termUrl({ protocol: 'https:', host: 'h:1' }, 'g 1', 'a/b', { mode: 'control', takeover: true, cols: 90, rows: 30 }));
    expect(u.protocol).toBe('wss:');
    expect(u.pathname).toBe('/api/v1/groups/g%201/actors/a%2Fb/term');
    expect(Object.fromEntries(u.searchParams)).toEqual({ mode: 'control', bootstrap: 'snapshot_v1', output_flow: 'ack_v1', takeover: 'true', cols: '90', rows: '30' });
    const v = new URL(termUrl({ protocol: 'http:', host: 'h' }, 'g', 'a', { mode: 'viewer', cols: 90 }));
    expect(v.protocol).toBe('ws:');
    expect(v.searchParams.has('cols')).toBe(false);
    expect(v.searchParams.has('takeover')).toBe(false);
  });
});
