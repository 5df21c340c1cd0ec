import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TermAttachment } from '@cccc/ipc-protocol/node';
import { ActorTerminal, defaultPtySpawner, stopPtySession, type TerminalSession } from '@cccc/pty-runtime';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import type { RuntimeRegistry } from '../src/runtime/runtime-registry.js';

// Test support for terminal ops: real node-pty agents registered in the daemon's in-process registry, and a
// reader for raw attach streams. Until the lifecycle service starts actors, tests start them here.

export interface StartedTerminal extends AsyncDisposable {
  readonly terminal: ActorTerminal;
  readonly session: TerminalSession;
}

export function startTerminal(
  deps: { readonly runtimes: RuntimeRegistry },
  groupId: string,
  actorId: string,
  options: { argv?: string[]; ringCapBytes?: number; cols?: number; rows?: number } = {},
): StartedTerminal {
  const terminal = new ActorTerminal({ actorId, spawner: defaultPtySpawner(), ...(options.ringCapBytes ? { ringCapBytes: options.ringCapBytes } : {}) });
  const session = terminal.start({
    argv: options.argv ?? fakeAgentArgv(['--no-alt-screen']),
    env: { ...(process.env as Record<string, string>), TERM: 'xterm-256color' },
    cwd: mkdtempSync(join(tmpdir(), 'cccc-term-')),
    ...(options.cols ? { cols: options.cols } : {}),
    ...(options.rows ? { rows: options.rows } : {}),
  });
  deps.runtimes.set(groupId, actorId, terminal);
  return {
    terminal,
    session,
    async [Symbol.asyncDispose]() {
      deps.runtimes.delete(groupId, actorId);
      const current = terminal.session;
      if (current && !current.exited) await stopPtySession(current.pty, { graceMs: 500 }).catch(() => undefined);
      if (session !== current && !session.exited) await stopPtySession(session.pty, { graceMs: 500 }).catch(() => undefined);
      terminal[Symbol.dispose]();
    },
  };
}

/** Waits until `check` holds, polling. */
export async function until(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Everything an attachment received after its handshake line, and whether it was closed. */
export class StreamReader {
  private chunks: Buffer[] = [];
  closed = false;

  constructor(readonly attachment: TermAttachment) {
    if (attachment.initialBytes.byteLength > 0) this.chunks.push(attachment.initialBytes);
    attachment.socket.on('data', (d: Buffer) => this.chunks.push(d));
    attachment.socket.on('close', () => (this.closed = true));
    attachment.socket.on('error', () => undefined);
    attachment.socket.resume();
  }

  get bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  get text(): string {
    return this.bytes.toString('utf8');
  }

  waitFor(needle: string, timeoutMs = 10_000): Promise<void> {
    return until(() => this.text.includes(needle), timeoutMs, `stream output ${JSON.stringify(needle)}`);
  }

  waitClosed(timeoutMs = 10_000): Promise<void> {
    return until(() => this.closed, timeoutMs, 'stream close');
  }

  write(data: string): void {
    this.attachment.socket.write(data);
  }
}
