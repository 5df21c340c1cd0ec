import { describe, expect, it } from 'vitest';
import { createFakePtySpawner, type FakePtySession } from '../testing/fake-pty.js';
import { fakeAgentProgram } from '../testing/fake-agent-program.js';
import { fakeAgentArgv } from '../testing/fake-agent-path.js';
import { OutputCollector } from '../testing/collect.js';
import { spawnNodePty } from '../pty/node-pty-session.js';
import { stopPtySession } from '../pty/spawner.js';
import { ActorTerminal } from './actor-terminal.js';

const launch = { argv: ['agent'], env: {}, cwd: '/' };
const silent = () => createFakePtySpawner(() => {});
const tick = () => new Promise((r) => setTimeout(r, 5));

function setup(program = silent()) {
  const terminal = new ActorTerminal({ actorId: 'peer1', spawner: program });
  const session = terminal.start(launch);
  return { terminal, session, pty: session.pty as FakePtySession };
}

describe('TerminalSession', () => {
  it('defaults to 120×40 and tracks first-output readiness', async () => {
    const { session, pty } = setup();
    expect([session.cols, session.rows]).toEqual([120, 40]);
    expect(await session.waitReady(10)).toBe(false);
    expect(session.firstOutputAt).toBeUndefined();
    pty.emitOutput('hi');
    expect(await session.waitReady(1000)).toBe(true);
    expect(session.firstOutputAt).toBeGreaterThanOrEqual(session.startedAt);
  });

  it('follows bracketed paste on/off even when split across chunks', async () => {
    const { session, pty } = setup();
    pty.emitOutput('\x1b[?20');
    pty.emitOutput('04h');
    await pty.flushOutput();
    expect(session.bracketedPaste).toBe(true);
    pty.emitOutput('\x1b[?2004');
    pty.emitOutput('l');
    await pty.flushOutput();
    expect(session.bracketedPaste).toBe(false);
  });

  it('answers a cursor-position query only while no client is attached', async () => {
    const { terminal, pty } = setup();
    pty.emitOutput('\x1b[');
    pty.emitOutput('6n');
    await pty.flushOutput();
    await tick();
    expect(pty.writtenText()).toBe('\x1b[1;1R');
    terminal.attachments.attach({ mode: 'viewer' });
    pty.emitOutput('\x1b[6n');
    await pty.flushOutput();
    await tick();
    expect(pty.writtenText()).toBe('\x1b[1;1R');
  });

  it('keeps output in the ring with cursors and streams it to listeners', async () => {
    const { session, pty } = setup();
    const seen: Array<[number, number]> = [];
    session.onOutput((c) => seen.push([c.start, c.end]));
    pty.emitOutput('abc');
    pty.emitOutput('de');
    await pty.flushOutput();
    expect(seen).toEqual([
      [0, 3],
      [3, 5],
    ]);
    expect(session.ring.slice(0).toString()).toBe('abcde');
  });
});

describe('ActorTerminal.submit', () => {
  it('writes raw text then the key when bracketed paste is off', async () => {
    const { terminal, pty } = setup();
    const r = await terminal.submit('hello\n\n', { submitDelayMs: 0 });
    expect(r).toEqual({ outcome: 'accepted', bytesWritten: 6 });
    expect(pty.writtenText()).toBe('hello\r');
  });

  it('wraps in paste markers when the app enabled bracketed paste', async () => {
    const { terminal, pty } = setup();
    pty.emitOutput('\x1b[?2004h');
    await pty.flushOutput();
    await terminal.submit('a\nb', { submitDelayMs: 0, submit: 'newline' });
    expect(pty.writtenText()).toBe('\x1b[200~a\nb\x1b[201~\n');
  });

  it('submit none writes only the payload; forced paste overrides auto', async () => {
    const { terminal, pty } = setup();
    await terminal.submit('x', { submit: 'none', bracketedPaste: true });
    expect(pty.writtenText()).toBe('\x1b[200~x\x1b[201~');
  });

  it('waits submitDelayMs between payload and key; copilot repeats Enter', async () => {
    const { terminal, pty } = setup();
    const t = performance.now();
    await terminal.submit('go', { submitDelayMs: 60, submitRepeat: { count: 2, gapMs: 30 } });
    expect(performance.now() - t).toBeGreaterThanOrEqual(85);
    expect(pty.writes.map((w) => Buffer.from(w).toString())).toEqual(['go', '\r', '\r']);
  });

  it('fails when nothing was written, is ambiguous when part was', async () => {
    const a = setup();
    a.pty.failNextWrite(0);
    expect(await a.terminal.submit('x', { submitDelayMs: 0 })).toMatchObject({ outcome: 'failed' });
    a.pty.failNextWrite(3);
    expect(await a.terminal.submit('hello', { submitDelayMs: 0 })).toMatchObject({ outcome: 'ambiguous', bytesWritten: 3 });
    const b = setup();
    let second = false;
    const orig = b.pty.write.bind(b.pty);
    b.pty.write = async (d) => {
      if (second) throw new Error('unknown failure');
      second = true;
      return orig(d);
    };
    expect(await b.terminal.submit('payload', { submitDelayMs: 0 })).toMatchObject({ outcome: 'ambiguous', bytesWritten: 7 });
  });

  it('fails when the session is gone before any byte', async () => {
    const { terminal, pty } = setup();
    pty.kill('SIGKILL');
    await pty.flushOutput();
    expect(await terminal.submit('x')).toMatchObject({ outcome: 'failed' });
    const empty = new ActorTerminal({ actorId: 'p', spawner: silent() });
    expect(await empty.submit('x')).toEqual({ outcome: 'failed', reason: 'not_running' });
  });

  it('never writes an old transaction into a replacement session', async () => {
    const spawner = silent();
    const terminal = new ActorTerminal({ actorId: 'peer1', spawner });
    const first = terminal.start(launch);
    const pending = terminal.submit('old payload', { submitDelayMs: 50 });
    // A queued submit on the old lane too: it must not start at all.
    const queued = terminal.submit('queued', { submitDelayMs: 0 });
    await tick();
    const old = terminal.detachSession()!;
    old.pty.kill('SIGKILL');
    const replacement = terminal.start(launch);
    expect(await pending).toMatchObject({ outcome: 'ambiguous', reason: 'session_replaced' });
    expect(await queued).toMatchObject({ outcome: 'failed', reason: 'session_replaced' });
    expect((first.pty as FakePtySession).writtenText()).toBe('old payload');
    expect((replacement.pty as FakePtySession).writes).toHaveLength(0);
    const tx = terminal.beginInput()!;
    terminal.start(launch);
    expect(await tx.write('late')).toEqual({ ok: false, bytesWritten: 0, reason: 'session_replaced' });
    expect((replacement.pty as FakePtySession).writes).toHaveLength(0);
  });

  it('replacing a session drops its attachments', () => {
    const { terminal } = setup();
    const a = terminal.attachments.attach({ mode: 'control' });
    terminal.start(launch);
    expect(terminal.attachments.isWriter(a.attachmentId)).toBe(false);
  });

  it('reports exits of the current session', async () => {
    const { terminal, pty } = setup(createFakePtySpawner(fakeAgentProgram()));
    const exits: unknown[] = [];
    terminal.onSessionExited(({ exit }) => exits.push(exit));
    pty.kill('SIGKILL');
    await pty.flushOutput();
    expect(exits).toEqual([{ exitCode: null, signal: 9 }]);
  });

  it('delivers into the real fake agent over node-pty (bracketed paste detected)', async () => {
    const terminal = new ActorTerminal({ actorId: 'peer1', spawner: spawnNodePty });
    const session = terminal.start({ argv: fakeAgentArgv(), env: process.env as Record<string, string>, cwd: process.cwd() });
    using out = new OutputCollector(session.pty);
    expect(await session.waitReady(5000)).toBe(true);
    expect(await session.waitBracketedPaste(5000)).toBe(true);
    const r = await terminal.submit('[cccc] user → peer1 [event_id=e1]:\nline one\nline two\n', { submitDelayMs: 0 });
    expect(r.outcome).toBe('accepted');
    await out.waitFor('received: [cccc] user → peer1 [event_id=e1]:\\nline one\\nline two');
    const exit = await stopPtySession(session.pty, { graceMs: 2000 });
    expect(exit.exitCode ?? exit.signal).not.toBeNull();
    terminal[Symbol.dispose]();
  });
});
