import type { Event } from '../events.js';

/** What to run in a new PTY. `argv[0]` is resolved on `env.PATH` (falling back to the daemon's). */
export interface PtySpawnOptions {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cols: number;
  readonly rows: number;
}

export interface PtyExit {
  /** Exit code when the process exited normally, else null. */
  readonly exitCode: number | null;
  /** Signal number when the process was killed by a signal, else null. */
  readonly signal: number | null;
}

/**
 * One process running on a pseudo-terminal. Output is raw bytes (cursors count bytes, so nothing
 * is decoded here). The real implementation is node-pty; `./testing` has an in-memory fake.
 */
export interface PtySession extends Disposable {
  readonly pid: number;
  readonly cols: number;
  readonly rows: number;
  /** True once `onExit` has fired. */
  readonly exited: boolean;
  /**
   * Resolves when every byte was handed to the PTY. Rejects with a `PtyWriteError` whose
   * `bytesWritten` says how much provably got in (0 means nothing did).
   */
  write(data: string | Uint8Array): Promise<void>;
  resize(cols: number, rows: number): void;
  /** Signals the whole process group (agents spawn helpers that must not outlive them). */
  kill(signal?: NodeJS.Signals): void;
  /**
   * Output as it is read. The chunk may be a view of a read buffer that is reused for the next
   * read: it is valid only during the listener call, so copy what you keep.
   */
  readonly onData: Event<Uint8Array>;
  /** Fires once, after the last `onData`. */
  readonly onExit: Event<PtyExit>;
}

export type PtySpawner = (options: PtySpawnOptions) => PtySession;

export type PtyWriteErrorCode = 'pty_closed' | 'pty_write_failed';

export class PtyWriteError extends Error {
  override readonly name = 'PtyWriteError';
  constructor(
    readonly code: PtyWriteErrorCode,
    /** Bytes of this write that reached the PTY before the failure. */
    readonly bytesWritten: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type PtySpawnErrorCode = 'command_not_found' | 'cwd_missing' | 'empty_command' | 'spawn_failed';

export class PtySpawnError extends Error {
  override readonly name = 'PtySpawnError';
  constructor(
    readonly code: PtySpawnErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
