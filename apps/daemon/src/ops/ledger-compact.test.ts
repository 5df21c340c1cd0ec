import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;

const segments = () => {
  const dir = join(fx.home, 'groups', gid, 'state/ledger/segments');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const manifest = () => JSON.parse(readFileSync(join(fx.home, 'groups', gid, 'state/ledger/manifest.json'), 'utf8')) as { segments: Array<{ reason: string }> };

beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = (await fx.client.call('group_create', { title: 'compact-test' })).group_id;
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['sh'] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

describe('ledger compaction in the daemon', () => {
  it('rotates automatically at group.yaml ledger.max_active_bytes, and ledger_compact honours the 300 s rate limit', async () => {
    // Below the default 5,000,000 bytes nothing rotates, manually or automatically.
    await fx.client.call('send', { group_id: gid, text: 'before the threshold', to: ['peer1'], message_mode: 'mail' });
    expect(await fx.client.call('ledger_compact', { group_id: gid })).toMatchObject({ rotated: false });
    expect(segments()).toEqual([]);

    // The reference's per-group setting, read live from group.yaml.
    appendFileSync(join(fx.home, 'groups', gid, 'group.yaml'), 'ledger:\n  max_active_bytes: 4000\n');
    await new Promise((r) => setTimeout(r, 1100)); // the trigger re-reads the threshold at most once a second
    for (let i = 0; i < 40 && segments().length === 0; i++) {
      await fx.client.call('send', { group_id: gid, text: `message ${i} ${'x'.repeat(200)}`, to: ['peer1'], message_mode: 'mail' });
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(segments()).toHaveLength(1);
    // The automatic rotation runs beside the sends: its manifest is renamed into place while the
    // sealed segment's directory entry syncs, so it may land a moment after the segment shows.
    const listed = () => {
      try {
        return manifest().segments.length;
      } catch {
        return 0; // not written yet
      }
    };
    for (let i = 0; i < 100 && listed() === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(manifest().segments.map((s) => s.reason)).toEqual(['auto']);

    // Past the threshold again within 300 s: neither the trigger nor a plain ledger_compact rotates.
    for (let i = 0; i < 30; i++) await fx.client.call('send', { group_id: gid, text: `more ${i} ${'y'.repeat(200)}`, to: ['peer1'], message_mode: 'mail' });
    const limited = await fx.client.call('ledger_compact', { group_id: gid });
    expect(limited).toMatchObject({ rotated: false, reason: expect.stringContaining('rate limited') });
    expect(segments()).toHaveLength(1);
    // force bypasses the limit.
    expect(await fx.client.call('ledger_compact', { group_id: gid, force: true, reason: 'operator' })).toMatchObject({ rotated: true });
    expect(manifest().segments.map((s) => s.reason)).toEqual(['auto', 'operator']);

    // The whole history is still readable in order through the daemon.
    const tail = await fx.client.call('ledger_tail', { group_id: gid, limit: 1000, kinds: ['chat.message'] });
    expect(tail.events.length).toBeGreaterThanOrEqual(32);
  });
});
