import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opCatalog } from '@cccc/ipc-protocol';
import { DaemonCallError } from '@cccc/ipc-protocol/node';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';
import type { DaemonServices } from '../daemon.js';
import { StreamReader, startTerminal, until, type StartedTerminal } from '../../test-support/terminal-fixture.js';

let fx: DaemonFixture;
let kernel: DaemonServices;
let gid: string;
let lead: StartedTerminal;
let peer: StartedTerminal;

async function failure(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e) => e,
  );
  expect(err, 'the call should fail').toBeInstanceOf(DaemonCallError);
  return (err as DaemonCallError).code;
}

beforeAll(async () => {
  fx = await startDaemonFixture();
  kernel = fx.services;
  const created = await fx.client.call('group_create', { title: 'term-ops' });
  gid = created.group_id;
  await fx.client.call('attach', { path: mkdtempSync(join(tmpdir(), 'cccc-scope-')), group_id: gid });
  for (const id of ['lead', 'peer1', 'peer2', 'idle']) {
    await fx.client.call('actor_add', { group_id: gid, actor_id: id, runtime: 'custom', command: ['sh'] });
  }
  lead = startTerminal(kernel, gid, 'lead');
  peer = startTerminal(kernel, gid, 'peer1');
  await Promise.all([lead.session.waitReady(10_000), peer.session.waitReady(10_000)]);
  await until(() => peer.session.ring.slice(0).toString().includes('fake-agent> '), 10_000, 'prompt');
});
afterAll(async () => {
  await lead?.[Symbol.asyncDispose]();
  await peer?.[Symbol.asyncDispose]();
  await fx?.[Symbol.asyncDispose]();
});

const target = () => ({ group_id: gid, actor_id: 'peer1' });

describe('terminal_* ops', () => {
  it('terminal_tail renders the backlog as text with the cursor it was rendered from', async () => {
    const res = await fx.client.call('terminal_tail', { ...target(), max_chars: 4000 });
    opCatalog.terminal_tail.result.parse(res);
    expect(res).toMatchObject({ group_id: gid, actor_id: 'peer1', warning: '' });
    expect(res.text).toContain('fake-agent ready');
    expect(res.text).not.toContain('\x1b');
    expect(res.end_cursor).toBe(peer.session.ring.completeEnd());
    const short = await fx.client.call('terminal_tail', { ...target(), max_chars: 5 });
    expect([...short.text].length).toBeLessThanOrEqual(5);
    const raw = await fx.client.call('terminal_tail', { ...target(), strip_ansi: false });
    expect(raw.text).toContain('\x1b[');
  });

  it('terminal_snapshot returns an ANSI screen and its raw cursor range', async () => {
    const res = await fx.client.call('terminal_snapshot', { ...target(), limit_bytes: 65536 });
    opCatalog.terminal_snapshot.result.parse(res);
    expect(res.data).toContain('fake-agent ready');
    expect(res.start_cursor).toBe(peer.session.ring.startCursor);
    expect(res.end_cursor).toBe(peer.session.ring.completeEnd());
  });

  it('terminal_replay pages raw output up to the end fixed by the first page', async () => {
    const first = await fx.client.call('terminal_replay', { ...target(), limit_bytes: 16 });
    opCatalog.terminal_replay.result.parse(first);
    expect(first.history).toMatchObject({ start_cursor: 0, end_cursor: 16, has_more: true, cursor_expired: false });
    let data = first.history.data;
    let after = first.history.end_cursor;
    for (let more = first.history.has_more; more; ) {
      const page = await fx.client.call('terminal_replay', { ...target(), after, end_cursor: first.replay_end_cursor, limit_bytes: 64 });
      expect(page.replay_end_cursor).toBe(first.replay_end_cursor);
      data += page.history.data;
      after = page.history.end_cursor;
      more = page.history.has_more;
    }
    expect(after).toBe(first.replay_end_cursor);
    expect(data).toBe(peer.session.ring.slice(0, first.replay_end_cursor).toString('utf8'));
  });

  it('terminal_since returns the page after a cursor; terminal_history renders backwards', async () => {
    const end = peer.session.ring.completeEnd();
    const since = await fx.client.call('terminal_since', { ...target(), after: end - 4 });
    opCatalog.terminal_since.result.parse(since);
    expect(since.history).toMatchObject({ start_cursor: end - 4, end_cursor: end, has_more: false, cursor_expired: false });
    const hist = await fx.client.call('terminal_history', { ...target(), limit_bytes: 1 << 20 });
    opCatalog.terminal_history.result.parse(hist);
    expect(hist).toMatchObject({ group_id: gid, actor_id: 'peer1', start_cursor: 0, end_cursor: end, has_more: false, cursor_expired: false });
    expect(hist.text).toContain('fake-agent ready');
  });

  it('terminal_clear forgets retained output while cursors keep counting', async () => {
    await using t = startTerminal(kernel, gid, 'peer2');
    await until(() => t.session.ring.endCursor > 0, 10_000, 'output');
    await until(() => t.session.ring.slice(0).toString().includes('fake-agent> '), 10_000, 'prompt');
    const before = t.session.ring.endCursor;
    const res = await fx.client.call('terminal_clear', { group_id: gid, actor_id: 'peer2' });
    expect(opCatalog.terminal_clear.result.parse(res)).toEqual({ group_id: gid, actor_id: 'peer2', cleared: true });
    expect(t.session.ring.startCursor).toBe(before);
    const since = await fx.client.call('terminal_since', { group_id: gid, actor_id: 'peer2', after: 0 });
    expect(since.history).toMatchObject({ data: '', start_cursor: before, cursor_expired: true });
    const tail = await fx.client.call('terminal_tail', { group_id: gid, actor_id: 'peer2' });
    expect(tail.text).toBe('');
    expect(tail.warning).toContain(`${before}`);
  });

  it('answers actor_not_running without a live terminal and actor_not_found for strangers', async () => {
    expect(await failure(fx.client.call('terminal_tail', { group_id: gid, actor_id: 'idle' }))).toBe('actor_not_running');
    expect(await failure(fx.client.call('terminal_since', { group_id: gid, actor_id: 'idle', after: 0 }))).toBe('actor_not_running');
    expect(await failure(fx.client.call('terminal_tail', { group_id: gid, actor_id: 'nobody' }))).toBe('actor_not_found');
    expect(await failure(fx.client.openTermAttach({ group_id: gid, actor_id: 'idle' }))).toBe('not_pty_actor');
  });
});

describe('transcript visibility', () => {
  const setVisibility = (v: string) => fx.client.call('group_settings_update', { group_id: gid, patch: { terminal_transcript_visibility: v } });
  const tailBy = (by: string, actor = 'peer1') => fx.client.call('terminal_tail', { group_id: gid, actor_id: actor, by });

  it('foreman (default): the foreman and the actor itself read, other peers do not', async () => {
    await expect(tailBy('lead')).resolves.toMatchObject({ actor_id: 'peer1' });
    await expect(tailBy('peer1')).resolves.toMatchObject({ actor_id: 'peer1' });
    expect(await failure(tailBy('peer2'))).toBe('permission_denied');
    expect(await failure(fx.client.call('terminal_replay', { ...target(), by: 'peer2' }))).toBe('permission_denied');
    expect(await failure(fx.client.openTermAttach({ ...target(), by: 'peer2', mode: 'viewer' }))).toBe('permission_denied');
  });

  it('off: only the user and the actor itself; all: every actor', async () => {
    await setVisibility('off');
    try {
      expect(await failure(tailBy('lead'))).toBe('permission_denied');
      await expect(tailBy('peer1')).resolves.toBeTruthy();
      await expect(fx.client.call('terminal_tail', target())).resolves.toBeTruthy();
      await setVisibility('all');
      await expect(tailBy('peer2')).resolves.toBeTruthy();
      await expect(tailBy('peer2', 'lead')).resolves.toBeTruthy();
    } finally {
      await setVisibility('foreman');
    }
  });
});

describe('term_resize and term_attachment_status', () => {
  it('validates the size first (invalid_size) and requires the current writer', async () => {
    for (const size of [{ cols: 9, rows: 24 }, { cols: 80, rows: 1 }, { cols: 80 }, { cols: 70000, rows: 24 }, { cols: 80.5, rows: 24 }]) {
      expect(await failure(fx.client.call('term_resize', { ...target(), ...size }))).toBe('invalid_size');
    }
    await using writer = await fx.client.openTermAttach({ ...target(), mode: 'control', takeover: true });
    await using viewer = await fx.client.openTermAttach({ ...target(), mode: 'viewer' });
    const writerId = writer.handshake.attachment_id!;
    const viewerId = viewer.handshake.attachment_id!;
    expect(await failure(fx.client.call('term_resize', { ...target(), cols: 100, rows: 30, attachment_id: viewerId }))).toBe('terminal_not_writer');
    expect(await failure(fx.client.call('term_resize', { ...target(), cols: 100, rows: 30, attachment_id: 9999 }))).toBe('terminal_not_writer');
    const ok = await fx.client.call('term_resize', { ...target(), cols: 100, rows: 30, attachment_id: writerId });
    expect(opCatalog.term_resize.result.parse(ok)).toEqual({ ...target(), cols: 100, rows: 30 });
    expect([peer.session.cols, peer.session.rows]).toEqual([100, 30]);

    expect(await fx.client.call('term_attachment_status', { ...target(), attachment_id: writerId })).toEqual({ terminal_writable: true });
    expect(await fx.client.call('term_attachment_status', { ...target(), attachment_id: viewerId })).toEqual({ terminal_writable: false });
    expect(await fx.client.call('term_attachment_status', { ...target(), attachment_id: 0 })).toEqual({ terminal_writable: false });
  });

  it('ping advertises the attach extensions', async () => {
    const ping = await fx.client.call('ping', {});
    expect(ping.capabilities).toMatchObject({ term_attachment_status: true, term_attach_snapshot_v1: true });
  });
});

describe('with actors started by the lifecycle ops', () => {
  it('reads and attaches to a started actor; restart closes the old stream and never routes its input; stop ends reads', async () => {
    const { fakeAgentArgv } = await import('@cccc/pty-runtime/testing');
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'live', runtime: 'custom', command: fakeAgentArgv(['--no-alt-screen']) });
    await fx.client.call('actor_start', { group_id: gid, actor_id: 'live' });
    const live = { group_id: gid, actor_id: 'live' };
    await until(() => kernel.runtimes.get(gid, 'live')?.session?.ring.slice(0).toString().includes('fake-agent> ') ?? false, 15_000, 'prompt');
    expect((await fx.client.call('terminal_tail', live)).text).toContain('fake-agent ready');

    const r = new StreamReader(await fx.client.openTermAttach({ ...live, mode: 'control' }));
    expect(r.attachment.handshake.terminal_writable).toBe(true);
    r.write('before-restart\r');
    await r.waitFor('received: before-restart');

    await fx.client.call('actor_restart', live);
    await r.waitClosed(15_000);
    r.write('after-restart\r');
    await until(() => kernel.runtimes.get(gid, 'live')?.session?.ring.slice(0).toString().includes('fake-agent> ') ?? false, 15_000, 'new prompt');
    await new Promise((res) => setTimeout(res, 200));
    expect(kernel.runtimes.get(gid, 'live')!.session!.ring.slice(0).toString()).not.toContain('after-restart');

    const again = new StreamReader(await fx.client.openTermAttach({ ...live, mode: 'control' }));
    expect(again.attachment.handshake.terminal_writable).toBe(true);
    again.attachment.close();

    await fx.client.call('actor_stop', live);
    expect(await failure(fx.client.call('terminal_tail', live))).toBe('actor_not_running');
    expect(await failure(fx.client.openTermAttach(live))).toBe('not_pty_actor');
  }, 60_000);
});
