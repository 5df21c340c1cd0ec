import { describe, expect, it } from 'vitest';
import { LONE_AFTER_MS, SLOW_INLINE_SYNC_MS, SLOW_SYNC_BACKOFF_FACTOR, SyncPlacement } from './sync-placement.js';

describe('SyncPlacement', () => {
  it('counts the process as a lone writer until two appends are in flight, then again once it has written alone for a while', () => {
    let now = 1000;
    const placement = new SyncPlacement(() => now);
    const first = placement.enter();
    expect(placement.lone()).toBe(true);
    const second = placement.enter(); // e.g. another group's append
    expect(placement.lone()).toBe(false);
    second();
    second(); // leaving twice counts once
    expect(placement.lone()).toBe(false);
    now += LONE_AFTER_MS - 1;
    expect(placement.lone()).toBe(false);
    now += 1;
    expect(placement.lone()).toBe(true);
    first();
    expect(placement.lone()).toBe(true);
  });

  it('sends batches back to the thread pool after a slow inline sync, for 25 times its duration, not after a fast one', () => {
    let now = 0;
    const placement = new SyncPlacement(() => now);
    placement.syncedInline(SLOW_INLINE_SYNC_MS);
    expect(placement.lone()).toBe(true);
    const slow = SLOW_INLINE_SYNC_MS + 5;
    placement.syncedInline(slow);
    expect(placement.lone()).toBe(false);
    now += LONE_AFTER_MS;
    const a = placement.enter();
    const b = placement.enter();
    expect(placement.lone()).toBe(false); // concurrency meanwhile never cuts the backoff short
    a();
    b();
    now += slow * SLOW_SYNC_BACKOFF_FACTOR - LONE_AFTER_MS - 1;
    expect(placement.lone()).toBe(false);
    now += 1;
    expect(placement.lone()).toBe(true);
  });
});
