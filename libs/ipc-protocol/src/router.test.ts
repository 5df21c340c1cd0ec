import { describe, expect, it } from 'vitest';
import { IpcError } from './errors.js';
import { OpRouter } from './router.js';
import { StreamUpgrade } from './upgrade.js';

function router(options = {}) {
  return new OpRouter(options)
    .register('ping', () => ({ version: '0', implementation: 'cccc-ts', pid: 1, ts: 't', ipc_v: 1 as const, capabilities: {} }))
    .register('ledger_snapshot', (args) => {
      if (args.group_id === 'g_missing') throw new IpcError('group_not_found', 'no such group', { group_id: args.group_id });
      if (args.group_id === 'g_boom') throw new Error('secret internal detail');
      if (args.group_id === 'g_domain') throw Object.assign(new Error('domain'), { domain: 'x' });
      return { snapshot: { group_id: args.group_id, reason: args.reason ?? null } };
    });
}

describe('OpRouter', () => {
  it('a request without args reaches an op whose schema takes {} with {}, and is refused by one that needs a field', async () => {
    const seen: unknown[] = [];
    const r = new OpRouter()
      .register('ping', (args) => {
        seen.push(args);
        return { version: '0', implementation: 'cccc-ts', pid: 1, ts: 't', ipc_v: 1 as const, capabilities: {} };
      })
      .register('attach', () => ({ group_id: 'g_1', scope_key: 's', title: 't' }));
    expect((await r.dispatch({ v: 1, op: 'ping' })).response.ok).toBe(true);
    expect((await r.dispatch({ v: 1, op: 'ping', args: {} })).response.ok).toBe(true);
    expect(seen).toEqual([{}, {}]);
    const refused = (await r.dispatch({ v: 1, op: 'attach', args: {} })).response;
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe('invalid_request');
    expect(refused.error?.details).toEqual({ field: 'path' });
  });

  it('validates args before the handler and ignores unknown keys', async () => {
    const r = router();
    const ok = await r.dispatch({ v: 1, op: 'ledger_snapshot', args: { group_id: 'g_1', extra: true } });
    expect(ok.response).toEqual({ v: 1, ok: true, result: { snapshot: { group_id: 'g_1', reason: null } }, error: null });
    const bad = await r.dispatch({ v: 1, op: 'ledger_snapshot', args: { group_id: 'g_1', reason: 5 } });
    expect(bad.response.error).toMatchObject({ code: 'invalid_request', details: { field: 'reason' } });
  });

  it('refuses a line nested past the depth limit before parsing it, naming the limit', async () => {
    const r = router();
    for (const levels of [65, 5_000, 100_000]) {
      const line = `{"v":1,"op":"ledger_snapshot","args":{"group_id":"g_1","reason":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
      const d = await r.dispatchLine(line);
      expect(d.response.error).toMatchObject({ code: 'invalid_request', details: { limit: 'json_depth', max: 64 } });
    }
    const wide = `{"v":1,"op":"ping","args":{"x":[${Array(100_001).fill(1).join(',')}]}}`;
    expect((await r.dispatchLine(wide)).response.error).toMatchObject({ code: 'invalid_request', details: { limit: 'json_nodes', max: 100_000 } });
    expect((await r.dispatchLine('{"v":1,"op":"ping","args":{}}')).response.ok).toBe(true);
  });

  it('maps missing group_id and a blank one to missing_group_id', async () => {
    const r = router();
    for (const args of [{}, { group_id: '' }, { group_id: ' ' }, { group_id: null }]) {
      const d = await r.dispatch({ v: 1, op: 'ledger_snapshot', args });
      expect(d.response.error?.code).toBe('missing_group_id');
    }
  });

  it('passes IpcError codes through and hides unexpected exceptions', async () => {
    const seen: unknown[] = [];
    const r = router({ onInternalError: (e: unknown) => seen.push(e) });
    const nf = await r.dispatch({ v: 1, op: 'ledger_snapshot', args: { group_id: 'g_missing' } });
    expect(nf.response).toEqual({
      v: 1,
      ok: false,
      result: {},
      error: { code: 'group_not_found', message: 'no such group', details: { group_id: 'g_missing' } },
    });
    const boom = await r.dispatch({ v: 1, op: 'ledger_snapshot', args: { group_id: 'g_boom' } });
    expect(boom.response.error).toEqual({ code: 'internal_error', message: 'internal error', details: {} });
    expect(JSON.stringify(boom.response)).not.toContain('secret');
    expect(seen).toHaveLength(1);
  });

  it('maps domain errors in one place', async () => {
    const r = router({ mapError: (e: unknown) => ((e as { domain?: string }).domain ? new IpcError('domain_code', 'mapped') : undefined) });
    const d = await r.dispatch({ v: 1, op: 'ledger_snapshot', args: { group_id: 'g_domain' } });
    expect(d.response.error?.code).toBe('domain_code');
  });

  it('refuses ops outside the catalog and double registration', () => {
    const r = router();
    expect(() => r.register('no_such' as 'ping', () => ({}) as never)).toThrow(/catalog/);
    expect(() => r.register('ping', () => ({}) as never)).toThrow(/already/);
  });

  it('returns an upgrade for streaming handlers', async () => {
    const r = new OpRouter().register('events_stream', () => new StreamUpgrade({ ok: 1 }, () => {}));
    const d = await r.dispatch({ v: 1, op: 'events_stream', args: { group_id: 'g' } });
    expect(d.response.ok).toBe(true);
    expect(typeof d.upgrade).toBe('function');
  });

  it('checks handler results when asked', async () => {
    const r = new OpRouter({ validateResults: true }).register('shutdown', () => ({ msg: 1 }) as never);
    const d = await r.dispatch({ v: 1, op: 'shutdown' });
    expect(d.response.error?.code).toBe('internal_error');
  });
});
