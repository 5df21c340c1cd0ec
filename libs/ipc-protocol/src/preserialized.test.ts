import { describe, expect, it } from 'vitest';
import { encodeLineText } from './codec.js';
import { errorResponse, okResponse } from './envelope.js';
import { loopbackConnection } from './loopback.js';
import { encodeResponseLine, PreserializedResult, preserializedResponseText } from './preserialized.js';
import { OpRouter } from './router.js';

/** okResponse as the router calls it with a handler's (possibly pre-serialized) result. */
const ok = (result: unknown) => okResponse(result as Record<string, unknown>);

const snapshot = { group_id: 'g_1', note: 'a "quoted" \u2028 value', nested: { list: [1, null, 'x'] } };

describe('PreserializedResult', () => {
  it('encodes to exactly the bytes JSON.stringify gives the same plain response', () => {
    const plain = encodeLineText(okResponse({ snapshot }));
    const pre = encodeLineText(ok(PreserializedResult.of({ snapshot })));
    expect(pre).toBe(plain);
    // Generic serializers (tests, logs) still see the value through toJSON.
    expect(JSON.stringify(ok(PreserializedResult.of({ snapshot })))).toBe(plain.trimEnd());
  });

  it('splices the cached text instead of serializing the value again', () => {
    // A stale value next to its text proves which one is written: the text wins.
    const pre = new PreserializedResult({ snapshot: { group_id: 'value' } }, '{"snapshot":{"group_id":"text"}}');
    expect(encodeLineText(ok(pre))).toBe('{"v":1,"ok":true,"result":{"snapshot":{"group_id":"text"}},"error":null}\n');
  });

  it('caches the whole response line as UTF-8 bytes for sockets', () => {
    const pre = PreserializedResult.of({ snapshot });
    const line = encodeResponseLine(ok(pre));
    expect(new TextDecoder().decode(line as Uint8Array)).toBe(encodeLineText(okResponse({ snapshot })));
    expect(encodeResponseLine(ok(pre))).toBe(line); // encoded once
    expect(encodeResponseLine(errorResponse('x', 'y'))).toBe(encodeLineText(errorResponse('x', 'y')));
  });

  it('applies only to plain ok envelopes', () => {
    expect(preserializedResponseText(errorResponse('x', 'y'))).toBeUndefined();
    expect(preserializedResponseText({ v: 1, ok: true, result: PreserializedResult.of({}), error: null, extra: 1 })).toBeUndefined();
    expect(preserializedResponseText(null)).toBeUndefined();
  });

  it('goes through the router and the loopback transport, and result validation checks the value', async () => {
    const good = new OpRouter({ validateResults: true }).register('ledger_snapshot', () => PreserializedResult.of({ snapshot }) as never);
    const conn = loopbackConnection(good);
    await conn.send('{"v":1,"op":"ledger_snapshot","args":{"group_id":"g_1"}}\n');
    expect(JSON.parse((await conn.readLine())!)).toEqual({ v: 1, ok: true, result: { snapshot }, error: null });

    const bad = new OpRouter({ validateResults: true }).register('ledger_snapshot', () => PreserializedResult.of({ nope: 1 }) as never);
    const conn2 = loopbackConnection(bad);
    await conn2.send('{"v":1,"op":"ledger_snapshot","args":{"group_id":"g_1"}}\n');
    expect(JSON.parse((await conn2.readLine())!)).toMatchObject({ ok: false, error: { code: 'internal_error' } });
  });
});
