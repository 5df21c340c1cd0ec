import { OpRouter, PreserializedResult } from '@cccc/ipc-protocol';
import { describe, expect, it } from 'vitest';
import { registerCoreOps } from './core.js';

const pingOf = async (router: OpRouter) => {
  const { response } = await router.dispatchLine('{"v":1,"op":"ping","args":{}}');
  const result = (response as { result: unknown }).result;
  expect(result).toBeInstanceOf(PreserializedResult);
  return result as PreserializedResult<{ ts: string; capabilities: Record<string, unknown> }>;
};

describe('ping', () => {
  it('answers text that is exactly JSON.stringify of its result, with a fresh ts each call', async () => {
    // validateResults: the router checks each answer against the catalog's ping result schema.
    const router = new OpRouter({ validateResults: true });
    registerCoreOps(router, { requestShutdown: () => {}, executable: '/opt/cccc/bin/cccc.js' });
    const first = await pingOf(router);
    await new Promise((r) => setTimeout(r, 5));
    const second = await pingOf(router);
    for (const ping of [first, second]) {
      expect(ping.json).toBe(JSON.stringify(ping.value));
      expect(Object.keys(ping.value)).toEqual(['version', 'implementation', 'compatibility', 'pid', 'ts', 'ipc_v', 'capabilities', 'executable']);
      expect(ping.value).toMatchObject({ implementation: 'cccc-ts', pid: process.pid, ipc_v: 1, executable: '/opt/cccc/bin/cccc.js' });
    }
    expect(Date.parse(second.value.ts)).toBeGreaterThan(Date.parse(first.value.ts));
  });

  it('advertises an op registered after the first ping at the next one', async () => {
    const router = new OpRouter();
    registerCoreOps(router, { requestShutdown: () => {}, executable: null });
    expect((await pingOf(router)).value.capabilities.ledger_tail).toBe(false);
    router.register('ledger_tail', () => ({ events: [], next_cursor: null }) as never);
    const ping = await pingOf(router);
    expect(ping.value.capabilities.ledger_tail).toBe(true);
    expect(ping.json).toBe(JSON.stringify(ping.value));
  });
});
