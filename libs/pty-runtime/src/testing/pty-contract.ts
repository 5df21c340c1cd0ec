import { afterEach, describe, expect, it } from 'vitest';
import { PtyWriteError, type PtySession } from '../pty/pty-session.js';
import { OutputCollector, waitForExit } from './collect.js';

export type PtyContractCase =
  | 'pid and size'
  | 'output is raw bytes'
  | 'write reaches the program'
  | 'bracketed paste round trip'
  | 'resize'
  | 'kill fires onExit once'
  | 'write after exit rejects'
  | 'unsubscribe stops delivery'
  | 'exits on its own'
  | 'dispose kills';

export interface PtyContractOptions {
  /** Label for the describe block. */
  readonly name: string;
  /** Spawn the fake agent (tools/fake-agent semantics) with these extra arguments, 120×40. */
  readonly spawnAgent: (args: string[]) => PtySession;
  /** Cases to skip, each with the reason why. */
  readonly skip?: Partial<Record<PtyContractCase, string>>;
}

/**
 * The behaviour every `PtySession` implementation must share, run against the fake and node-pty.
 * Each implementation supplies a spawner for the scripted fake agent.
 */
export function describePtyContract(options: PtyContractOptions): void {
  const live: PtySession[] = [];
  const spawn = (args: string[] = []) => {
    const s = options.spawnAgent(args);
    live.push(s);
    return s;
  };
  const test = (name: PtyContractCase, fn: () => Promise<void>) => {
    const reason = options.skip?.[name];
    if (reason) it.skip(`${name} (skipped: ${reason})`, fn);
    else it(name, fn);
  };

  describe(`PtySession contract: ${options.name}`, () => {
    afterEach(() => {
      for (const s of live.splice(0)) s[Symbol.dispose]();
    });

    test('pid and size', async () => {
      const s = spawn();
      expect(s.pid).toBeGreaterThan(0);
      expect([s.cols, s.rows]).toEqual([120, 40]);
      expect(s.exited).toBe(false);
    });

    test('output is raw bytes', async () => {
      const s = spawn();
      using out = new OutputCollector(s);
      const first = await new Promise<Uint8Array>((resolve) => s.onData(resolve));
      expect(first).toBeInstanceOf(Uint8Array);
      await out.waitFor('fake-agent> ');
    });

    test('write reaches the program', async () => {
      const s = spawn();
      using out = new OutputCollector(s);
      await out.waitFor('fake-agent> ');
      await s.write('héllo wörld\r');
      await out.waitFor('[fake-agent] received: héllo wörld');
    });

    test('bracketed paste round trip', async () => {
      const s = spawn();
      using out = new OutputCollector(s);
      const text = await out.waitFor('fake-agent> ');
      expect(text).toContain('\x1b[?2004h');
      await s.write('\x1b[200~line one\nline two\x1b[201~');
      await s.write(new TextEncoder().encode('\r'));
      await out.waitFor('[fake-agent] received: line one\\nline two');
    });

    test('resize', async () => {
      const s = spawn();
      s.resize(80, 24);
      expect([s.cols, s.rows]).toEqual([80, 24]);
    });

    test('kill fires onExit once', async () => {
      const s = spawn();
      let count = 0;
      s.onExit(() => count++);
      const exited = waitForExit(s);
      s.kill('SIGKILL');
      const exit = await exited;
      expect(exit.signal).toBe(9);
      expect(exit.exitCode).toBeNull();
      expect(s.exited).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      expect(count).toBe(1);
    });

    test('write after exit rejects', async () => {
      const s = spawn();
      const exited = waitForExit(s);
      s.kill('SIGKILL');
      await exited;
      const err = await s.write('late\r').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PtyWriteError);
      expect((err as PtyWriteError).code).toBe('pty_closed');
      expect((err as PtyWriteError).bytesWritten).toBe(0);
    });

    test('unsubscribe stops delivery', async () => {
      const s = spawn();
      using out = new OutputCollector(s);
      await out.waitFor('fake-agent> ');
      let seen = 0;
      const sub = s.onData(() => seen++);
      sub[Symbol.dispose]();
      await s.write('x\r');
      await out.waitFor('received: x');
      expect(seen).toBe(0);
    });

    test('exits on its own', async () => {
      const s = spawn(['--exit-after', '1']);
      using out = new OutputCollector(s);
      await out.waitFor('fake-agent> ');
      const exited = waitForExit(s);
      await s.write('bye\r');
      expect(await exited).toEqual({ exitCode: 0, signal: null });
      expect(out.text()).toContain('received: bye');
    });

    test('dispose kills', async () => {
      const s = spawn();
      const exited = waitForExit(s);
      s[Symbol.dispose]();
      await exited;
      expect(s.exited).toBe(true);
    });
  });
}
