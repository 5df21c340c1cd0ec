import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';
import type { DaemonServices } from '../daemon.js';
import { attachCounters, attachTuning } from './attach-tuning.js';
import { StreamReader, startTerminal, until, type StartedTerminal } from '../../test-support/terminal-fixture.js';

let fx: DaemonFixture;
let kernel: DaemonServices;
let gid: string;
let agent: StartedTerminal;
const defaults = { ...attachTuning };

beforeAll(async () => {
  fx = await startDaemonFixture();
  kernel = fx.services;
  gid = (await fx.client.call('group_create', { title: 'attach' })).group_id;
  await fx.client.call('attach', { path: mkdtempSync(join(tmpdir(), 'cccc-scope-')), group_id: gid });
  for (const id of ['a1', 'a2', 'slow', 'stall']) await fx.client.call('actor_add', { group_id: gid, actor_id: id, runtime: 'custom', command: ['sh'] });
  agent = startTerminal(kernel, gid, 'a1');
  await until(() => agent.session.ring.slice(0).toString().includes('fake-agent> '), 10_000, 'prompt');
});
afterEach(() => Object.assign(attachTuning, defaults));
afterAll(async () => {
  await agent?.[Symbol.asyncDispose]();
  await fx?.[Symbol.asyncDispose]();
});

const a1 = <T extends object = {}>(extra: T = {} as T) => ({ group_id: gid, actor_id: 'a1', ...extra });
const attach = async (extra: Record<string, unknown> = {}) => new StreamReader(await fx.client.openTermAttach(a1(extra)));
const writable = async (id: number) => (await fx.client.call('term_attachment_status', a1({ attachment_id: id }))).terminal_writable;

describe('term_attach handshake and replay', () => {
  it('streams the retained output from replay_cursor, then live bytes, gap-free', async () => {
    const ring = agent.session.ring;
    const r = await attach({ mode: 'viewer' });
    const hs = r.attachment.handshake;
    expect(hs).toMatchObject({ group_id: gid, actor_id: 'a1', terminal_mode: 'viewer', terminal_writable: false, writer_replaced: false });
    expect(hs.attachment_id).toBeGreaterThan(0);
    expect(hs.replay_cursor).toBe(ring.startCursor);
    expect(hs.replay_end_cursor).toBe(ring.completeEnd());
    expect(hs.initial_output).toEqual({ kind: 'replay', bytes: hs.replay_end_cursor - hs.replay_cursor, cursor: hs.replay_cursor });
    await until(() => r.bytes.byteLength >= hs.replay_end_cursor, 5000, 'replay');
    expect(r.bytes.subarray(0, hs.replay_end_cursor).equals(ring.slice(0, hs.replay_end_cursor))).toBe(true);
    // Live output after the handshake follows the replay without a gap.
    await using w = await fx.client.openTermAttach(a1({ mode: 'control', takeover: true }));
    w.socket.write('live-check\r');
    await r.waitFor('received: live-check');
    expect(r.bytes.equals(ring.slice(hs.replay_cursor, hs.replay_cursor + r.bytes.byteLength))).toBe(true);
    r.attachment.close();
  });

  it('replays from since, clamped to the retained window', async () => {
    const end = agent.session.ring.completeEnd();
    const mid = await attach({ mode: 'viewer', since: 5 });
    expect(mid.attachment.handshake).toMatchObject({ replay_cursor: 5, replay_end_cursor: end });
    await until(() => mid.bytes.byteLength >= end - 5, 5000, 'replay from 5');
    expect(mid.bytes.subarray(0, end - 5).equals(agent.session.ring.slice(5, end))).toBe(true);
    mid.attachment.close();
    const past = await attach({ mode: 'viewer', since: end + 10_000 });
    expect(past.attachment.handshake).toMatchObject({ replay_cursor: end, replay_end_cursor: end, initial_output: { kind: 'replay', bytes: 0 } });
    past.attachment.close();
  });

  it('clamps an expired since to the retained start (after terminal_clear)', async () => {
    await using t = startTerminal(kernel, gid, 'a2');
    await until(() => t.session.ring.slice(0).toString().includes('fake-agent> '), 10_000, 'prompt');
    await fx.client.call('terminal_clear', { group_id: gid, actor_id: 'a2' });
    const start = t.session.ring.startCursor;
    const r = new StreamReader(await fx.client.openTermAttach({ group_id: gid, actor_id: 'a2', mode: 'viewer', since: 0 }));
    expect(r.attachment.handshake).toMatchObject({ replay_cursor: start, replay_end_cursor: start });
    r.attachment.close();
  });

  it('snapshot_v1: the snapshot bytes first, then raw bytes from the snapshot cursor', async () => {
    const r = await attach({ mode: 'viewer', bootstrap: 'snapshot_v1' });
    const hs = r.attachment.handshake;
    const io = hs.initial_output!;
    expect(io.kind).toBe('snapshot');
    expect(hs.replay_cursor).toBe(io.cursor);
    expect(hs.replay_end_cursor).toBe(io.cursor);
    expect([io.cols, io.rows]).toEqual([agent.session.cols, agent.session.rows]);
    await until(() => r.bytes.byteLength >= io.bytes, 5000, 'snapshot');
    const snapshot = r.bytes.subarray(0, io.bytes).toString('utf8');
    expect(snapshot).toContain('fake-agent> ');
    await using w = await fx.client.openTermAttach(a1({ mode: 'control', takeover: true }));
    w.socket.write('after-snap\r');
    await r.waitFor('received: after-snap');
    const raw = r.bytes.subarray(io.bytes);
    expect(raw.equals(agent.session.ring.slice(io.cursor, io.cursor + raw.byteLength))).toBe(true);
    r.attachment.close();
  });

  it('refuses snapshot hints out of range with invalid_size', async () => {
    const err = await fx.client.openTermAttach(a1({ cols: 5000, rows: 40 })).catch((e) => e);
    expect(err.code).toBe('invalid_size');
  });
});

describe('control, viewer and the single writer', () => {
  it('one writer at a time; takeover replaces it; close releases it', async () => {
    const first = await attach({ mode: 'control', takeover: true });
    expect(first.attachment.handshake).toMatchObject({ terminal_mode: 'control', terminal_writable: true });
    const second = await attach({ mode: 'control' });
    expect(second.attachment.handshake).toMatchObject({ terminal_mode: 'control', terminal_writable: false, writer_replaced: false });
    const viewer = await attach({ mode: 'viewer', takeover: true });
    expect(viewer.attachment.handshake).toMatchObject({ terminal_mode: 'viewer', terminal_writable: false, writer_replaced: false });
    const third = await attach({ mode: 'control', takeover: true });
    expect(third.attachment.handshake).toMatchObject({ terminal_writable: true, writer_replaced: true });
    expect(await writable(first.attachment.handshake.attachment_id!)).toBe(false);
    expect(await writable(third.attachment.handshake.attachment_id!)).toBe(true);
    third.attachment.close();
    await until(() => kernel.runtimes.get(gid, 'a1')!.attachments.writerId === undefined, 5000, 'writer released');
    expect(await writable(third.attachment.handshake.attachment_id!)).toBe(false);
    const fourth = await attach({ mode: 'control' });
    expect(fourth.attachment.handshake.terminal_writable).toBe(true);
    for (const r of [first, second, viewer, fourth]) r.attachment.close();
  });

  it("writer input reaches the agent; viewer and replaced writers' input is ignored", async () => {
    const viewer = await attach({ mode: 'viewer' });
    const writer = await attach({ mode: 'control', takeover: true });
    viewer.write('from-viewer\r');
    const old = await attach({ mode: 'control' });
    old.write('from-readonly\r');
    await new Promise((r) => setTimeout(r, 150));
    writer.write('from-writer\r');
    await viewer.waitFor('received: from-writer');
    await writer.waitFor('received: from-writer');
    const all = agent.session.ring.slice(agent.session.ring.startCursor).toString();
    expect(all).not.toContain('from-viewer');
    expect(all).not.toContain('from-readonly');
    for (const r of [viewer, writer, old]) r.attachment.close();
  });

  it('cols/rows hints resize the PTY only for control + takeover', async () => {
    const before = [agent.session.cols, agent.session.rows];
    const v = await attach({ mode: 'viewer', cols: 90, rows: 20, bootstrap: 'snapshot_v1' });
    expect([agent.session.cols, agent.session.rows]).toEqual(before);
    expect(v.attachment.handshake.initial_output).toMatchObject({ cols: before[0], rows: before[1] });
    const c = await attach({ mode: 'control', takeover: true, cols: 90, rows: 20, bootstrap: 'snapshot_v1' });
    expect([agent.session.cols, agent.session.rows]).toEqual([90, 20]);
    expect(c.attachment.handshake.initial_output).toMatchObject({ kind: 'snapshot', cols: 90, rows: 20 });
    await fx.client.call('term_resize', a1({ cols: 120, rows: 40, attachment_id: c.attachment.handshake.attachment_id }));
    v.attachment.close();
    c.attachment.close();
  });

  it('a replaced session closes its attachments; old input never reaches the new session', async () => {
    await using t = startTerminal(kernel, gid, 'a2');
    await until(() => t.session.ring.slice(0).toString().includes('fake-agent> '), 10_000, 'prompt');
    const r = new StreamReader(await fx.client.openTermAttach({ group_id: gid, actor_id: 'a2', mode: 'control', takeover: true }));
    const old = t.session;
    const next = t.terminal.start({ argv: fakeAgentArgv(['--no-alt-screen']), env: process.env as Record<string, string>, cwd: tmpdir() });
    await r.waitClosed();
    r.write('stale-input\r');
    await until(() => next.ring.slice(0).toString().includes('fake-agent> '), 10_000, 'new prompt');
    expect(next.ring.slice(0).toString()).not.toContain('stale-input');
    old.pty.kill?.('SIGKILL');
  });
});

describe('backpressure and stalls', () => {
  it('closes an attachment that falls out of the retained window and releases its writer', async () => {
    attachTuning.maxPendingBytes = 64 * 1024;
    const before = attachCounters.fellBehind;
    await using t = startTerminal(kernel, gid, 'slow', { ringCapBytes: 256 * 1024, argv: fakeAgentArgv(['--no-alt-screen', '--start-delay-ms', '300', '--flood', '20000000']) });
    const att = await fx.client.openTermAttach({ group_id: gid, actor_id: 'slow', mode: 'control' });
    att.socket.pause(); // a client that stops reading
    const id = att.handshake.attachment_id!;
    expect(att.handshake.terminal_writable).toBe(true);
    await until(() => attachCounters.fellBehind > before, 20_000, 'fell-behind close');
    expect(await fx.client.call('term_attachment_status', { group_id: gid, actor_id: 'slow', attachment_id: id })).toEqual({ terminal_writable: false });
    expect(t.terminal.attachments.size).toBe(0);
    att.close();
  }, 30_000);

  it('closes an attachment whose input batch cannot be written within the stall limit', async () => {
    attachTuning.inputStallMs = 400;
    const before = attachCounters.inputStalled;
    // A program that never reads stdin: the PTY input queue fills and writes block.
    await using t = startTerminal(kernel, gid, 'stall', { argv: ['sh', '-c', 'stty -echo -icanon; echo ready; sleep 30'] });
    await until(() => t.session.ring.slice(0).toString().includes('ready'), 10_000, 'ready');
    const r = new StreamReader(await fx.client.openTermAttach({ group_id: gid, actor_id: 'stall', mode: 'control' }));
    const id = r.attachment.handshake.attachment_id!;
    r.write('x'.repeat(256 * 1024));
    await until(() => attachCounters.inputStalled > before, 10_000, 'stall close');
    await r.waitClosed();
    expect(await fx.client.call('term_attachment_status', { group_id: gid, actor_id: 'stall', attachment_id: id })).toEqual({ terminal_writable: false });
  }, 20_000);

  it('closes an attachment whose queued input exceeds its bound', async () => {
    attachTuning.maxQueuedInputBytes = 64 * 1024;
    const before = attachCounters.inputOverflow;
    await using t = startTerminal(kernel, gid, 'stall', { argv: ['sh', '-c', 'stty -echo -icanon; echo ready; sleep 30'] });
    await until(() => t.session.ring.slice(0).toString().includes('ready'), 10_000, 'ready');
    const r = new StreamReader(await fx.client.openTermAttach({ group_id: gid, actor_id: 'stall', mode: 'control' }));
    r.write('y'.repeat(1024 * 1024));
    await until(() => attachCounters.inputOverflow > before, 10_000, 'overflow close');
    await r.waitClosed();
  }, 20_000);
});
