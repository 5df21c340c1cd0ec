import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IPty } from 'node-pty';
import { Emitter } from '../events.js';
import { spawnWithDirectReads } from './direct-read.js';
import { FdWriter } from './fd-writer.js';
import { PtySpawnError, PtyWriteError, type PtyExit, type PtySession, type PtySpawnOptions } from './pty-session.js';
import { findExecutable } from './which.js';

const encoder = new TextEncoder();

// Required at the first spawn, not at import: the native addon stays out of a daemon with no PTY.
const requireFromHere = createRequire(import.meta.url);
let nodePty: typeof import('node-pty') | undefined;
const ptySpawn: typeof import('node-pty').spawn = (...args) => (nodePty ??= requireFromHere('node-pty') as typeof import('node-pty')).spawn(...args);

/**
 * The real PTY: node-pty spawns and reaps; output is read into a reused buffer (`direct-read.ts`,
 * falling back to node-pty's `onData` with `encoding: null`) and input is written through
 * `FdWriter`.
 */
export function spawnNodePty(options: PtySpawnOptions): PtySession {
  const [command, ...args] = options.argv;
  if (!command) throw new PtySpawnError('empty_command', 'cannot spawn an empty command');
  if (!existsSync(options.cwd) || !statSync(options.cwd).isDirectory()) {
    throw new PtySpawnError('cwd_missing', `working directory does not exist: ${options.cwd}`);
  }
  const file = findExecutable(command, options.env.PATH ?? process.env.PATH);
  if (!file) throw new PtySpawnError('command_not_found', `command not found on PATH: ${command}`);
  const data = new Emitter<Uint8Array>();
  const spawn = () =>
    ptySpawn(file, args, {
      name: options.env.TERM ?? 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: { ...options.env },
      encoding: null,
    });
  let spawned: { pty: IPty; direct: boolean };
  try {
    // CCCC_PTY_STREAM_READS=1 keeps node-pty's own read stream: a fallback should the direct
    // path misbehave somewhere, and the same-run baseline of the attach benchmark.
    spawned = process.env.CCCC_PTY_STREAM_READS === '1' ? { pty: spawn(), direct: false } : spawnWithDirectReads(spawn, (chunk) => data.fire(chunk));
  } catch (err) {
    throw new PtySpawnError('spawn_failed', `failed to spawn ${command}: ${(err as Error).message}`, { cause: err });
  }
  return new NodePtySession(spawned.pty, options.cols, options.rows, data, spawned.direct);
}

class NodePtySession implements PtySession {
  private readonly exitEmitter = new Emitter<PtyExit>();
  readonly onData: PtySession['onData'];
  readonly onExit = this.exitEmitter.event;
  private readonly writer: FdWriter | undefined;
  private exitInfo: PtyExit | undefined;
  private _cols: number;
  private _rows: number;

  constructor(
    private readonly pty: IPty,
    cols: number,
    rows: number,
    private readonly dataEmitter: Emitter<Uint8Array>,
    directReads: boolean,
  ) {
    this.onData = dataEmitter.event;
    this._cols = cols;
    this._rows = rows;
    // Windows (conpty) has no master fd; there node-pty's write is the only path and completion
    // is unknowable, which the Windows branch reports by resolving after handing it over.
    const fd = (pty as unknown as { fd?: number }).fd;
    this.writer = typeof fd === 'number' && process.platform !== 'win32' ? new FdWriter(fd) : undefined;
    // With `encoding: null` node-pty hands out Buffers although its typings say string.
    if (!directReads) pty.onData((chunk) => this.dataEmitter.fire(chunk as unknown as Uint8Array));
    pty.onExit(({ exitCode, signal }) => {
      this.writer?.close('process exited');
      const sig = signal ? signal : null;
      this.exitInfo = { exitCode: sig ? null : exitCode, signal: sig };
      this.exitEmitter.fire(this.exitInfo);
      this.dataEmitter[Symbol.dispose]();
      this.exitEmitter[Symbol.dispose]();
    });
  }

  get pid(): number {
    return this.pty.pid;
  }
  get cols(): number {
    return this._cols;
  }
  get rows(): number {
    return this._rows;
  }
  get exited(): boolean {
    return this.exitInfo !== undefined;
  }

  write(data: string | Uint8Array): Promise<void> {
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    if (this.exitInfo) return Promise.reject(new PtyWriteError('pty_closed', 0, 'pty closed: process exited'));
    if (this.writer) return this.writer.write(bytes);
    try {
      this.pty.write(Buffer.from(bytes) as unknown as string);
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(new PtyWriteError('pty_write_failed', 0, (err as Error).message, { cause: err }));
    }
  }

  resize(cols: number, rows: number): void {
    if (this.exitInfo) return;
    this.pty.resize(cols, rows);
    this._cols = cols;
    this._rows = rows;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.exitInfo) return;
    // node-pty starts the child with setsid(), so its pid is also its process-group id.
    try {
      process.kill(-this.pty.pid, signal);
    } catch {
      try {
        process.kill(this.pty.pid, signal);
      } catch {
        /* already gone */
      }
    }
  }

  [Symbol.dispose](): void {
    if (!this.exitInfo) this.kill('SIGKILL');
  }
}
