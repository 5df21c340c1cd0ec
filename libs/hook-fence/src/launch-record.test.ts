import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actorHookKey, decodeLaunchRecord, newLaunchToken } from './launch-record.js';

describe('launch record', () => {
  const record = { v: 1, group_id: 'g', actor_id: 'a', runtime: 'claude', launch_token: 'tok', hook_enabled: true, pid: 42 };

  it('decodes a valid record and fails closed on anything else', () => {
    expect(decodeLaunchRecord(record)).toEqual(record);
    expect(decodeLaunchRecord({ ...record, pid: null })).toMatchObject({ pid: null });
    expect(decodeLaunchRecord({ ...record, extra: 1 })).toBeNull();
    expect(decodeLaunchRecord({ ...record, pid: -1 })).toBeNull();
    expect(decodeLaunchRecord('x')).toBeNull();
  });

  it('keys actor files by sha256(group_id \\0 actor_id) and mints fresh tokens', () => {
    expect(actorHookKey('g', 'a')).toBe(createHash('sha256').update('g\0a').digest('hex'));
    expect(actorHookKey('g', 'a')).not.toBe(actorHookKey('ga', ''));
    const a = newLaunchToken();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newLaunchToken()).not.toBe(a);
  });
});
