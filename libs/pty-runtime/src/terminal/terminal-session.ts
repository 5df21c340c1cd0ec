import { DisposableStore, Emitter } from '../events.js';
import type { PtyExit, PtySession } from '../pty/pty-session.js';
import { OutputRing } from '../ring/output-ring.js';
import type { TerminalSource } from '../render/terminal-ops.js';
import { SequenceScanner } from './sequence-scanner.js';

const DSR_CURSOR_QUERY = '\x1b[6n';
/** Cursor at the top-left: a safe answer when no real terminal is there to give one. */
const DSR_CURSOR_REPLY = '\x1b[1;1R';

export interface TerminalSessionOptions {
  /** Stable identity of this PTY session (increasing per actor); input is bound to it. */
  readonly id: number;
  readonly ringCapBytes?: number;
  /** Whether a client is attached; while one is, it answers terminal queries itself. */
  readonly hasAttachedClient: () => boolean;
  readonly now?: () => number;
}

export interface OutputChunk {
  /** Valid only during the listener call (it may view a reused read buffer); the ring keeps a copy. */
  readonly data: Uint8Array;
  /** Cursor of the first byte of `data`. */
  readonly start: number;
  readonly end: number;
}

/**
 * One running PTY session: its output ring, the terminal modes the daemon must know about
 * (bracketed paste), automatic answers to cursor queries, first-output readiness, and a
 * serialized input lane. Created by `ActorTerminal`; replaced wholesale on restart.
 */
export class TerminalSession implements Disposable, TerminalSource {
  readonly id: number;
  readonly ring: OutputRing;
  readonly startedAt: number;
  private _bracketedPaste = false;
  private _firstOutputAt: number | undefined;
  private _exit: PtyExit | undefined;
  private readonly store = new DisposableStore();
  private readonly outputEmitter = this.store.add(new Emitter<OutputChunk>());
  private readonly exitEmitter = this.store.add(new Emitter<PtyExit>());
  private readonly pasteEmitter = this.store.add(new Emitter<boolean>());
  private readonly endingEmitter = this.store.add(new Emitter<void>());
  private _ending = false;
  private readonly scanner = new SequenceScanner({ pasteOn: '\x1b[?2004h', pasteOff: '\x1b[?2004l', dsr: DSR_CURSOR_QUERY });
  private readonly now: () => number;
  private resolveReady!: () => void;
  private inputTail: Promise<unknown> = Promise.resolve();
  /** Resolves at the first output byte (or never, if the agent never prints). */
  readonly ready: Promise<void>;
  /** Output appended to the ring, in order; attachments stream from here. */
  readonly onOutput = this.outputEmitter.event;
  readonly onExit = this.exitEmitter.event;
  readonly onBracketedPasteChange = this.pasteEmitter.event;
  /** Fires once when the owner decides to end this session (`markEnding`). */
  readonly onEnding = this.endingEmitter.event;

  constructor(
    readonly pty: PtySession,
    private readonly options: TerminalSessionOptions,
  ) {
    this.id = options.id;
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.ring = new OutputRing(options.ringCapBytes === undefined ? {} : { capBytes: options.ringCapBytes });
    this.ready = new Promise<void>((resolve) => (this.resolveReady = resolve));
    this.store.add(pty.onData((data) => this.onData(data)));
    this.store.add(
      pty.onExit((exit) => {
        this._exit = exit;
        this.exitEmitter.fire(exit);
      }),
    );
  }

  get pid(): number {
    return this.pty.pid;
  }
  get cols(): number {
    return this.pty.cols;
  }
  get rows(): number {
    return this.pty.rows;
  }
  get exited(): boolean {
    return this._exit !== undefined;
  }
  get exit(): PtyExit | undefined {
    return this._exit;
  }
  /** The app has bracketed paste on (last seen ESC[?2004h without a later ESC[?2004l). */
  get bracketedPaste(): boolean {
    return this._bracketedPaste;
  }
  /** When the first output arrived (ms, `now()` clock), or undefined before that. */
  get firstOutputAt(): number | undefined {
    return this._firstOutputAt;
  }

  /** The owner is ending this session: a submit key not yet written must not be any more. */
  get ending(): boolean {
    return this._ending;
  }

  /**
   * Says the session is about to be stopped. A submit still waiting to write its submit key gives
   * up (its paste dies unsubmitted with the process), instead of typing Enter into an agent that
   * is killed before it can take the prompt up.
   */
  markEnding(): void {
    if (this._ending) return;
    this._ending = true;
    this.endingEmitter.fire();
  }

  /** true once the agent printed something; false if `timeoutMs` passed first. */
  waitReady(timeoutMs: number): Promise<boolean> {
    return raceTimeout(this.ready.then(() => true), timeoutMs, this._firstOutputAt !== undefined);
  }

  /** true once bracketed paste is on (the preamble gate); false on timeout. */
  waitBracketedPaste(timeoutMs: number): Promise<boolean> {
    if (this._bracketedPaste) return Promise.resolve(true);
    return raceTimeout(
      new Promise<boolean>((resolve) => {
        const sub = this.onBracketedPasteChange((on) => {
          if (!on) return;
          sub[Symbol.dispose]();
          resolve(true);
        });
      }),
      timeoutMs,
      false,
    );
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
  }

  /**
   * Runs `fn` alone on this session's input lane, so a payload and its submit key are never
   * interleaved with other input. Lifecycle code never waits on this.
   */
  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.inputTail.then(fn, fn);
    this.inputTail = run.catch(() => undefined);
    return run;
  }

  private onData(data: Uint8Array): void {
    const start = this.ring.endCursor;
    this.ring.append(data);
    if (this._firstOutputAt === undefined) {
      this._firstOutputAt = this.now();
      this.resolveReady();
    }
    for (const match of this.scanner.scan(data)) {
      if (match === 'dsr') {
        if (!this.options.hasAttachedClient()) this.pty.write(DSR_CURSOR_REPLY).catch(() => undefined);
      } else {
        const on = match === 'pasteOn';
        if (on !== this._bracketedPaste) {
          this._bracketedPaste = on;
          this.pasteEmitter.fire(on);
        }
      }
    }
    this.outputEmitter.fire({ data, start, end: this.ring.endCursor });
  }

  [Symbol.dispose](): void {
    this.store[Symbol.dispose]();
    this.pty[Symbol.dispose]();
  }
}

function raceTimeout<T>(promise: Promise<T>, timeoutMs: number, immediate: T | false): Promise<T | false> {
  if (immediate !== false) return Promise.resolve(immediate);
  return new Promise<T | false>((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, timeoutMs));
    promise.then((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}
