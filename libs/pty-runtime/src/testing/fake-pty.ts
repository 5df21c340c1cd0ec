import { Emitter, type Event } from '../events.js';
import { PtyWriteError, type PtyExit, type PtySession, type PtySpawnOptions, type PtySpawner } from '../pty/pty-session.js';

const encoder = new TextEncoder();
const SIGNALS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** The process side of a fake PTY, as seen by a scripted program. */
export interface FakePtyProcess {
  readonly options: PtySpawnOptions;
  readonly cols: number;
  readonly rows: number;
  /** Output from the program (what an agent prints). Delivered asynchronously, in order. */
  output(data: string | Uint8Array): void;
  exit(exitCode: number): void;
  readonly onInput: Event<Uint8Array>;
  readonly onResize: Event<{ cols: number; rows: number }>;
  /** Return true from a handler to take over the signal (otherwise the process dies of it). */
  onSignal(handler: (signal: NodeJS.Signals) => boolean): void;
}

export type FakeProgram = (process: FakePtyProcess) => void;

let nextFakePid = 900_000;

/**
 * In-memory PTY for unit tests. Besides the `PtySession` contract it records every write and
 * lets a test inject write failures, which a real PTY cannot do on demand.
 */
export class FakePtySession implements PtySession {
  readonly pid = nextFakePid++;
  private readonly dataEmitter = new Emitter<Uint8Array>();
  private readonly exitEmitter = new Emitter<PtyExit>();
  private readonly inputEmitter = new Emitter<Uint8Array>();
  private readonly resizeEmitter = new Emitter<{ cols: number; rows: number }>();
  readonly onData = this.dataEmitter.event;
  readonly onExit = this.exitEmitter.event;
  /** Every successful write, in order. */
  readonly writes: Uint8Array[] = [];
  private signalHandler: ((s: NodeJS.Signals) => boolean) | undefined;
  private exitInfo: PtyExit | undefined;
  private exitQueued = false;
  private outputChain: Promise<void> = Promise.resolve();
  private failures: Array<{ bytesWritten: number; code: 'pty_closed' | 'pty_write_failed' }> = [];
  private _cols: number;
  private _rows: number;
  /** Milliseconds each write takes to "reach the kernel". */
  writeDelayMs = 0;

  constructor(readonly options: PtySpawnOptions, program: FakeProgram) {
    this._cols = options.cols;
    this._rows = options.rows;
    const self = this;
    program({
      options,
      get cols() {
        return self._cols;
      },
      get rows() {
        return self._rows;
      },
      output: (data) => this.emitOutput(data),
      exit: (code) => this.finish({ exitCode: code, signal: null }),
      onInput: this.inputEmitter.event,
      onResize: this.resizeEmitter.event,
      onSignal: (handler) => {
        this.signalHandler = handler;
      },
    });
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

  /** All successfully written input, decoded. */
  writtenText(): string {
    return Buffer.concat(this.writes).toString('utf8');
  }

  /** The next write fails after `bytesWritten` bytes got in. */
  failNextWrite(bytesWritten = 0, code: 'pty_closed' | 'pty_write_failed' = 'pty_write_failed'): void {
    this.failures.push({ bytesWritten, code });
  }

  /** Output as if printed by the program (for tests that drive the screen directly). */
  emitOutput(data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    this.outputChain = this.outputChain.then(
      () =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            if (!this.exitInfo) this.dataEmitter.fire(bytes);
            resolve();
          }),
        ),
    );
  }

  /** Resolves once all output emitted so far has been delivered to listeners. */
  async flushOutput(): Promise<void> {
    await this.outputChain;
  }

  async write(data: string | Uint8Array): Promise<void> {
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    if (this.exitInfo || this.exitQueued) throw new PtyWriteError('pty_closed', 0, 'pty closed: process exited');
    if (this.writeDelayMs > 0) await new Promise((r) => setTimeout(r, this.writeDelayMs));
    if (this.exitInfo || this.exitQueued) throw new PtyWriteError('pty_closed', 0, 'pty closed: process exited');
    const failure = this.failures.shift();
    if (failure) {
      const n = Math.min(failure.bytesWritten, bytes.byteLength);
      if (n > 0) this.record(bytes.subarray(0, n));
      throw new PtyWriteError(failure.code, n, 'injected write failure');
    }
    this.record(bytes);
  }

  private record(bytes: Uint8Array): void {
    const copy = Uint8Array.from(bytes);
    this.writes.push(copy);
    this.inputEmitter.fire(copy);
  }

  resize(cols: number, rows: number): void {
    if (this.exitInfo) return;
    this._cols = cols;
    this._rows = rows;
    this.resizeEmitter.fire({ cols, rows });
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.exitInfo || this.exitQueued) return;
    if (signal !== 'SIGKILL' && this.signalHandler?.(signal)) return;
    this.finish({ exitCode: null, signal: SIGNALS[signal] ?? 15 });
  }

  /** Exit fires after pending output, like node-pty waiting for the master to drain. */
  private finish(exit: PtyExit): void {
    if (this.exitInfo || this.exitQueued) return;
    this.exitQueued = true;
    this.outputChain = this.outputChain.then(() => {
      this.exitInfo = exit;
      this.exitEmitter.fire(exit);
      this.dataEmitter[Symbol.dispose]();
      this.exitEmitter[Symbol.dispose]();
      this.inputEmitter[Symbol.dispose]();
    });
  }

  [Symbol.dispose](): void {
    this.kill('SIGKILL');
  }
}

/** A spawner that runs `program` for every spawn and keeps the sessions for inspection. */
export function createFakePtySpawner(program: FakeProgram): PtySpawner & { readonly sessions: FakePtySession[] } {
  const sessions: FakePtySession[] = [];
  const spawner = (options: PtySpawnOptions): PtySession => {
    const s = new FakePtySession(options, program);
    sessions.push(s);
    return s;
  };
  return Object.assign(spawner, { sessions });
}
