import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPER_MODE_ENV } from './debug.js';
import { MAX_TAIL_BYTES, MAX_TAIL_LINE_CHARS } from '../log-tail.js';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.11 debug_tail_logs / debug_clear_logs through the daemon's socket.

describe('debug_tail_logs / debug_clear_logs (§8.11)', () => {
  let d: DaemonFixture;
  let gid: string;
  const saved = process.env[DEVELOPER_MODE_ENV];
  const daemonLog = () => join(d.home, 'daemon', 'ccccd.log');
  beforeAll(async () => {
    delete process.env[DEVELOPER_MODE_ENV];
    d = await DaemonFixture.start();
    gid = await groupWithTeam(d);
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env[DEVELOPER_MODE_ENV];
    else process.env[DEVELOPER_MODE_ENV] = saved;
    await d.call('observability_update', { patch: { developer_mode: false } });
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('answers developer_mode_required while developer mode is off, and clears nothing', async () => {
    const size = statSync(daemonLog()).size;
    for (const op of ['debug_tail_logs', 'debug_clear_logs']) {
      const error = await d.errorOf(op, { component: 'daemon' });
      expect(error.code).toBe('developer_mode_required');
      expect(error.details).toMatchObject({ env: DEVELOPER_MODE_ENV, setting: 'observability.developer_mode' });
    }
    expect(statSync(daemonLog()).size).toBe(size);
  });

  it('observability.developer_mode turns the debug ops on (no env needed)', async () => {
    await d.call('observability_update', { patch: { developer_mode: true } });
    const tail = await d.call('debug_tail_logs', { component: 'daemon' });
    expect(tail).toMatchObject({ component: 'daemon', group_id: '', path: daemonLog() });
    expect(tail.lines.some((l) => l.includes('daemon started'))).toBe(true);
    expect((await d.call('debug_snapshot', {})).observability['developer_mode_source']).toBe('settings:observability.developer_mode');
  });

  it('tails the last N lines, clamps N, and bounds what it reads', async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    appendFileSync(daemonLog(), Array.from({ length: 3000 }, (_, i) => `line-${i}`).join('\n') + '\n');
    expect((await d.call('debug_tail_logs', { component: 'ccccd', lines: 3 })).lines).toEqual(['line-2997', 'line-2998', 'line-2999']);
    const all = await d.call('debug_tail_logs', { component: 'daemon', lines: 100_000 });
    expect(all.lines).toHaveLength(2000);
    expect(all.truncated).toBe(true);
    expect((await d.call('debug_tail_logs', { component: 'daemon' })).lines).toHaveLength(200);
    expect((await d.call('debug_tail_logs', { component: 'daemon', lines: -5 })).lines).toHaveLength(200);

    // One very long line is cut; a huge file is read only from its last MAX_TAIL_BYTES.
    appendFileSync(daemonLog(), 'x'.repeat(MAX_TAIL_LINE_CHARS * 3) + '\n');
    const long = await d.call('debug_tail_logs', { component: 'daemon', lines: 1 });
    expect(long.lines[0]).toHaveLength(MAX_TAIL_LINE_CHARS + 1);
    expect(long.truncated).toBe(true);
    appendFileSync(daemonLog(), ('y'.repeat(99) + '\n').repeat((MAX_TAIL_BYTES / 100) * 2));
    const big = await d.call('debug_tail_logs', { component: 'daemon', lines: 2000 });
    expect(big.lines.every((l) => l === 'y'.repeat(99))).toBe(true);
    expect(big.lines).toHaveLength(2000);
  });

  it('clears the daemon log in place; the daemon keeps logging to it', async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    const cleared = await d.call('debug_clear_logs', { component: 'daemon' });
    expect(cleared).toEqual({ component: 'daemon', group_id: '', path: daemonLog(), cleared: true });
    expect(statSync(daemonLog()).size).toBe(0);
    expect((await d.call('debug_tail_logs', { component: 'daemon' })).lines).toEqual([]);
    d.services.logger.log('error', 'after clear');
    expect(readFileSync(daemonLog(), 'utf8')).toContain('after clear');
  });

  it('web and im components: their files, im needs a group', async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    writeFileSync(join(d.home, 'daemon', 'cccc-web.log'), 'web-1\nweb-2\n');
    expect(await d.call('debug_tail_logs', { component: 'web', lines: 1 })).toMatchObject({ lines: ['web-2'], path: join(d.home, 'daemon', 'cccc-web.log') });
    expect(await d.codeOf('debug_tail_logs', { component: 'im' })).toBe('missing_group_id');
    expect(await d.codeOf('debug_clear_logs', { component: 'im_bridge' })).toBe('missing_group_id');
    const imLog = join(d.home, 'groups', gid, 'state', 'im_bridge.log');
    expect(await d.call('debug_tail_logs', { component: 'im', group_id: gid })).toMatchObject({ group_id: gid, path: imLog, lines: [] });
    mkdirSync(join(d.home, 'groups', gid, 'state'), { recursive: true });
    writeFileSync(imLog, 'im-1\n');
    expect((await d.call('debug_tail_logs', { component: 'im_bridge', group_id: gid })).lines).toEqual(['im-1']);
    await d.call('debug_clear_logs', { component: 'im', group_id: gid });
    expect(readFileSync(imLog, 'utf8')).toBe('');
    // Clearing a log that does not exist is already clear, and creates nothing.
    rmSync(join(d.home, 'daemon', 'cccc-web.log'));
    expect((await d.call('debug_clear_logs', { component: 'web' })).cleared).toBe(true);
    expect(existsSync(join(d.home, 'daemon', 'cccc-web.log'))).toBe(false);
  });

  it('refuses unknown components, and log paths that are symlinks', async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    for (const op of ['debug_tail_logs', 'debug_clear_logs']) {
      const error = await d.errorOf(op, { component: '../etc/passwd' });
      expect(error.code).toBe('invalid_component');
      expect(await d.codeOf(op, {})).toBe('invalid_request');
    }
    const target = join(d.home, 'secret.txt');
    writeFileSync(target, 'do not read\n');
    symlinkSync(target, join(d.home, 'daemon', 'cccc-web.log'));
    expect(await d.codeOf('debug_tail_logs', { component: 'web' })).toBe('log_unreadable');
    expect(await d.codeOf('debug_clear_logs', { component: 'web' })).toBe('log_unreadable');
    expect(readFileSync(target, 'utf8')).toBe('do not read\n');
    rmSync(join(d.home, 'daemon', 'cccc-web.log'));
  });

  it('global logs are user only; with group_id the foreman may read them, a peer may not', async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    for (const op of ['debug_tail_logs', 'debug_clear_logs']) {
      expect(await d.codeOf(op, { component: 'daemon', by: 'lead' })).toBe('permission_denied');
      expect(await d.codeOf(op, { component: 'daemon', by: 'p1', group_id: gid })).toBe('permission_denied');
      expect(await d.codeOf(op, { component: 'daemon', group_id: 'g_000000000000' })).toBe('group_not_found');
    }
    expect((await d.call('debug_tail_logs', { component: 'daemon', by: 'lead', group_id: gid })).group_id).toBe(gid);
    expect((await d.call('debug_clear_logs', { component: 'daemon', by: 'lead', group_id: gid })).cleared).toBe(true);
  });
});
