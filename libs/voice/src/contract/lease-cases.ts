import { expect, it } from 'vitest';
import type { LeaseRequest, RecordingLeaseStore } from '../lease/lease-types.js';

export interface LeaseContractOptions {
  /** A fresh, empty lease store whose clock is `now()`. */
  open(now: () => number): RecordingLeaseStore | Promise<RecordingLeaseStore>;
}

const G = 'g_contract0001';
const base = { group_id: G, group_title: 'Contract', voice_enabled: true } as const;

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

/** The recording lease rules every store must keep (spec §8.3 assistant_voice_recording_lease). */
export function leaseCases(options: LeaseContractOptions): void {
  let t = Date.parse('2026-12-01T10:00:00Z');
  const now = () => t;
  const open = async () => {
    t = Date.parse('2026-12-01T10:00:00Z');
    return options.open(now);
  };
  const acquire = (s: RecordingLeaseStore, owner: string, extra: Partial<LeaseRequest> = {}) =>
    s.update({ ...base, action: 'acquire', owner_id: owner, ...extra });

  it('L1: acquire returns a private lease_id; the public lease never shows it', async () => {
    const s = await open();
    const r = await acquire(s, 'tab-1', { capture_mode: 'browser', dispatch_target: 'document' });
    expect(r).toMatchObject({ acquired: true, released: false, lost: false, action: 'acquire', group_id: G });
    expect(r.lease_id).toMatch(/^vrl_[0-9a-f]{32}$/);
    expect(r.lease).toMatchObject({ owner_id: 'tab-1', group_id: G, group_title: 'Contract', capture_mode: 'browser', dispatch_target: 'document', by: 'user' });
    expect(r.lease).not.toHaveProperty('lease_id');
    expect(r.lease).not.toHaveProperty('expires_at_ms');
    expect(Date.parse(r.lease!.expires_at) - t).toBe(30_000);
    const status = await s.update({ ...base, action: 'status' });
    expect(status).toMatchObject({ acquired: false, lease: { owner_id: 'tab-1' } });
    expect(status.lease_id).toBeUndefined();
  });

  it('L2: every acquire mints a fresh lease_id, so the old connection cannot release its replacement', async () => {
    const s = await open();
    const first = await acquire(s, 'tab-1');
    const second = await acquire(s, 'tab-1');
    expect(second.lease_id).not.toBe(first.lease_id);
    const stale = await s.update({ ...base, action: 'release', owner_id: 'tab-1', lease_id: first.lease_id });
    expect(stale).toMatchObject({ released: false, lost: true });
    expect((await s.current())?.owner_id).toBe('tab-1');
    const hb = await s.update({ ...base, action: 'heartbeat', owner_id: 'tab-1', lease_id: first.lease_id });
    expect(hb).toMatchObject({ acquired: false, lost: true });
    expect(hb.lease_id).toBeUndefined();
    const ok = await s.update({ ...base, action: 'release', owner_id: 'tab-1', lease_id: second.lease_id });
    expect(ok).toMatchObject({ released: true, lost: false });
    expect(await s.current()).toBeUndefined();
  });

  it('L3: another owner or another group is busy while the lease lives, with the redacted active lease', async () => {
    const s = await open();
    await acquire(s, 'tab-1');
    for (const req of [acquire(s, 'tab-2'), s.update({ ...base, group_id: 'g_other', action: 'acquire', owner_id: 'tab-1' })]) {
      try {
        await req;
        expect.unreachable('should be busy');
      } catch (err) {
        const e = err as { code: string; details: Record<string, unknown> };
        expect(e.code).toBe('assistant_voice_recording_busy');
        expect(e.details.active_lease).toMatchObject({ owner_id: 'tab-1', group_id: G });
        expect(e.details.active_lease).not.toHaveProperty('lease_id');
      }
    }
    expect(await codeOf(s.update({ ...base, action: 'heartbeat', owner_id: 'tab-2', lease_id: 'vrl_x' }))).toBe('assistant_voice_recording_busy');
  });

  it('L4: heartbeat refreshes only the matching owner + lease, keeping its id, created_at and omitted metadata', async () => {
    const s = await open();
    const a = await acquire(s, 'tab-1', { capture_mode: 'service', recognition_backend: 'browser_asr', dispatch_target: 'document', ttl_seconds: 10 });
    t += 8_000;
    const hb = await s.update({ ...base, action: 'heartbeat', owner_id: 'tab-1', lease_id: a.lease_id, recognition_backend: 'assistant_service_local_asr', ttl_seconds: 10 });
    expect(hb).toMatchObject({ acquired: true, lost: false, lease_id: a.lease_id });
    expect(hb.lease).toMatchObject({ capture_mode: 'service', recognition_backend: 'assistant_service_local_asr', dispatch_target: 'document', created_at: a.lease!.created_at });
    expect(Date.parse(hb.lease!.expires_at)).toBe(t + 10_000);
    t += 8_000; // past the first expiry, within the refreshed one
    expect((await s.current())?.owner_id).toBe('tab-1');
  });

  it('L5: a heartbeat never creates a lease', async () => {
    const s = await open();
    const hb = await s.update({ ...base, action: 'heartbeat', owner_id: 'tab-1', lease_id: 'vrl_none' });
    expect(hb).toMatchObject({ acquired: false, lost: true });
    expect(await s.current()).toBeUndefined();
  });

  it('L6: an expired lease is gone: status shows none and another owner may acquire', async () => {
    const s = await open();
    const a = await acquire(s, 'tab-1', { ttl_seconds: 5 });
    t += 5_000;
    expect(await s.current()).toBeUndefined();
    expect((await s.update({ ...base, action: 'heartbeat', owner_id: 'tab-1', lease_id: a.lease_id })).lost).toBe(true);
    expect((await acquire(s, 'tab-2')).acquired).toBe(true);
  });

  it('L7: ttl_seconds is bounded (5..120, default 30)', async () => {
    const s = await open();
    const short = await acquire(s, 'tab-1', { ttl_seconds: 1 });
    expect(Date.parse(short.lease!.expires_at) - t).toBe(5_000);
    const long = await acquire(s, 'tab-1', { ttl_seconds: 100_000 });
    expect(Date.parse(long.lease!.expires_at) - t).toBe(120_000);
  });

  it('L8: owner_id and lease_id are required where the spec says, before anything changes', async () => {
    const s = await open();
    expect(await codeOf(s.update({ ...base, action: 'acquire' }))).toBe('missing_owner_id');
    expect(await codeOf(s.update({ ...base, action: 'acquire', owner_id: '  ' }))).toBe('missing_owner_id');
    expect(await codeOf(s.update({ ...base, action: 'heartbeat', owner_id: 'tab-1' }))).toBe('missing_lease_id');
    expect(await codeOf(s.update({ ...base, action: 'release', owner_id: 'tab-1' }))).toBe('missing_lease_id');
    expect(await s.current()).toBeUndefined();
  });

  it('L9: while Voice Secretary is disabled only composer dictation may record; a heartbeat inherits its target', async () => {
    const s = await open();
    const off = { ...base, voice_enabled: false };
    expect(await codeOf(s.update({ ...off, action: 'acquire', owner_id: 'tab-1' }))).toBe('assistant_disabled');
    expect(await codeOf(s.update({ ...off, action: 'acquire', owner_id: 'tab-1', dispatch_target: 'document' }))).toBe('assistant_disabled');
    expect(await s.current()).toBeUndefined();
    const a = await s.update({ ...off, action: 'acquire', owner_id: 'tab-1', dispatch_target: 'composer' });
    expect(a.acquired).toBe(true);
    const hb = await s.update({ ...off, action: 'heartbeat', owner_id: 'tab-1', lease_id: a.lease_id });
    expect(hb).toMatchObject({ acquired: true, lease: { dispatch_target: 'composer' } });
    expect(await codeOf(s.update({ ...off, action: 'heartbeat', owner_id: 'tab-1', lease_id: a.lease_id, dispatch_target: 'document' }))).toBe('assistant_disabled');
    expect((await s.update({ ...off, action: 'release', owner_id: 'tab-1', lease_id: a.lease_id })).released).toBe(true);
  });
}
