import { DisposableStore, Emitter } from '../events.js';
import { terminalScreenText } from '../render/terminal-ops.js';
import { PtyWriteError, type PtyExit, type PtySpawnOptions, type PtySpawner } from '../pty/pty-session.js';
import { AttachmentRegistry } from './attachments.js';
import { DEFAULT_COLS, DEFAULT_ROWS } from './size.js';
import { watchPasteSettle, type PasteSettle } from './paste-settle.js';
import { buildPastePayload, submitKey } from './submit-payload.js';
import { TerminalSession } from './terminal-session.js';
import type { SubmitMode, SubmitOutcome } from './types.js';

export const DEFAULT_SUBMIT_DELAY_MS = 1500;
/** The reason of a submit given up because its session is being stopped (`markEnding`). */
export const SESSION_ENDING = 'session_ending';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits for `wait`, or less if the session is marked ending meanwhile. */
async function untilEnding(session: TerminalSession, wait: Promise<unknown>): Promise<void> {
  if (session.ending) return;
  let sub: Disposable | undefined;
  const ending = new Promise<void>((resolve) => (sub = session.onEnding(() => resolve())));
  try {
    await Promise.race([wait, ending]);
  } finally {
    sub?.[Symbol.dispose]();
  }
}

export interface ActorTerminalOptions {
  readonly actorId: string;
  readonly spawner: PtySpawner;
  readonly ringCapBytes?: number;
  readonly now?: () => number;
}

export interface LaunchSpec {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly cols?: number;
  readonly rows?: number;
}

export interface SubmitOptions {
  readonly submit?: SubmitMode;
  /**
   * Pause between payload and submit key, so the TUI has taken the paste before Enter: the fixed
   * wait, or with `pasteSettle` the most the evidence is waited for.
   */
  readonly submitDelayMs?: number;
  /** The runtime's evidence that the paste was taken in (paste-settle.ts); none: the fixed delay. */
  readonly pasteSettle?: PasteSettle;
  /** 'auto' (default) follows the app's ESC[?2004h/l; a boolean forces it. */
  readonly bracketedPaste?: 'auto' | boolean;
  /** Extra submit keys and their spacing (copilot wants Enter twice, 200 ms apart). */
  readonly submitRepeat?: { readonly count: number; readonly gapMs: number };
}

export type InputWriteResult = { ok: true } | { ok: false; bytesWritten: number; reason: string };

/**
 * Input bound to the session it was created for. Every write first checks that this session is
 * still the actor's live one, so a payload or submit key started before a restart can never
 * land in the replacement.
 */
export class InputTransaction {
  private written = 0;
  constructor(
    private readonly owner: ActorTerminal,
    readonly session: TerminalSession,
  ) {}

  get bytesWritten(): number {
    return this.written;
  }

  get live(): boolean {
    return this.owner.session === this.session && !this.session.exited;
  }

  async write(data: string | Uint8Array): Promise<InputWriteResult> {
    if (!this.live) return { ok: false, bytesWritten: 0, reason: this.owner.session !== this.session ? 'session_replaced' : 'session_exited' };
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    try {
      await this.session.pty.write(bytes);
      this.written += bytes.byteLength;
      return { ok: true };
    } catch (err) {
      const n = err instanceof PtyWriteError ? err.bytesWritten : NaN;
      if (Number.isFinite(n)) this.written += n;
      return { ok: false, bytesWritten: Number.isFinite(n) ? n : NaN, reason: err instanceof PtyWriteError ? err.code : String(err) };
    }
  }
}

/**
 * The per-actor terminal controller the daemon keeps: starts and replaces PTY sessions, owns the
 * attachments of the current one, and submits rendered deliveries with an explicit outcome.
 */
export class ActorTerminal implements Disposable {
  readonly actorId: string;
  readonly attachments = new AttachmentRegistry();
  private current: TerminalSession | undefined;
  private nextSessionId = 1;
  private readonly store = new DisposableStore();
  private sessionStore = new DisposableStore();
  private readonly startedEmitter = this.store.add(new Emitter<TerminalSession>());
  private readonly exitedEmitter = this.store.add(new Emitter<{ session: TerminalSession; exit: PtyExit }>());
  readonly onSessionStarted = this.startedEmitter.event;
  /** The agent exited (on its own or killed); the daemon records it stopped with this status. */
  readonly onSessionExited = this.exitedEmitter.event;

  constructor(private readonly options: ActorTerminalOptions) {
    this.actorId = options.actorId;
    this.store.add(this.attachments);
  }

  get session(): TerminalSession | undefined {
    return this.current;
  }

  /**
   * Spawns a new PTY session (default 120×40). A previous session is detached first: its
   * attachments are dropped and its pending input can no longer write. The caller stops the old
   * process (see `stopPtySession`) before or after, as its lifecycle rules say.
   */
  start(launch: LaunchSpec): TerminalSession {
    const spawnOptions: PtySpawnOptions = {
      argv: launch.argv,
      env: launch.env,
      cwd: launch.cwd,
      cols: launch.cols ?? DEFAULT_COLS,
      rows: launch.rows ?? DEFAULT_ROWS,
    };
    const pty = this.options.spawner(spawnOptions);
    this.detachSession();
    const session = new TerminalSession(pty, {
      id: this.nextSessionId++,
      hasAttachedClient: () => this.attachments.size > 0,
      ...(this.options.ringCapBytes === undefined ? {} : { ringCapBytes: this.options.ringCapBytes }),
      ...(this.options.now ? { now: this.options.now } : {}),
    });
    this.current = session;
    this.sessionStore = new DisposableStore();
    this.sessionStore.add(session.onExit((exit) => this.exitedEmitter.fire({ session, exit })));
    this.startedEmitter.fire(session);
    return session;
  }

  /** Forget the current session without killing it (the caller owns stopping processes). */
  detachSession(): TerminalSession | undefined {
    const old = this.current;
    this.current = undefined;
    this.sessionStore[Symbol.dispose]();
    this.attachments.reset();
    return old;
  }

  /** Input bound to the current session, or undefined when nothing runs. */
  beginInput(): InputTransaction | undefined {
    return this.current ? new InputTransaction(this, this.current) : undefined;
  }

  /**
   * REFERENCE_NOTES §3.3: strip trailing newlines, wrap in paste markers when the app enabled
   * bracketed paste, wait `submitDelayMs`, write the submit key. Runs on the session's input lane.
   */
  async submit(text: string, options: SubmitOptions = {}): Promise<SubmitOutcome> {
    const tx = this.beginInput();
    if (!tx || !tx.live) return { outcome: 'failed', reason: 'not_running' };
    return tx.session.runExclusive(() => runSubmit(tx, text, options));
  }

  [Symbol.dispose](): void {
    const session = this.detachSession();
    session?.[Symbol.dispose]();
    this.store[Symbol.dispose]();
  }
}

async function runSubmit(tx: InputTransaction, text: string, options: SubmitOptions): Promise<SubmitOutcome> {
  const mode = options.submit ?? 'enter';
  const bracketed = options.bracketedPaste === undefined || options.bracketedPaste === 'auto' ? tx.session.bracketedPaste : options.bracketedPaste;
  const payload = buildPastePayload(text, bracketed);
  const key = submitKey(mode);
  const keys = key === '' ? [] : Array.from({ length: Math.max(1, options.submitRepeat?.count ?? 1) }, () => key);
  const fail = (reason: string, bytes: number): SubmitOutcome =>
    // Nothing of this submit got in: provably not delivered. Anything else cannot be taken back.
    tx.bytesWritten === 0 && bytes === 0 ? { outcome: 'failed', reason } : { outcome: 'ambiguous', reason, bytesWritten: tx.bytesWritten };
  const maxDelay = options.submitDelayMs ?? DEFAULT_SUBMIT_DELAY_MS;
  if (tx.session.ending) return { outcome: 'failed', reason: SESSION_ENDING };
  // Watched from before the write: the TUI's answer may come before the write call returns.
  const screen = () => terminalScreenText(tx.session);
  using watch = payload !== '' && keys.length > 0 && options.pasteSettle ? watchPasteSettle(tx.session.onOutput, options.pasteSettle, maxDelay, text, screen) : undefined;
  if (payload !== '') {
    const r = await tx.write(payload);
    if (!r.ok) return fail(r.reason, r.bytesWritten);
  }
  for (let i = 0; i < keys.length; i++) {
    const delay = i === 0 ? (payload === '' ? 0 : maxDelay) : (options.submitRepeat?.gapMs ?? 0);
    const wait = i === 0 && watch ? watch.settled : delay > 0 ? sleep(delay) : undefined;
    if (i === 0) {
      if (wait) await untilEnding(tx.session, wait);
      // Stopped before the submit key: the paste dies unsubmitted with the session. Provably not
      // delivered when it was one bracketed paste (or one line), so the next session gets it.
      if (tx.session.ending) {
        return tx.bytesWritten === 0 || bracketed || !payload.includes('\n')
          ? { outcome: 'failed', reason: SESSION_ENDING }
          : { outcome: 'ambiguous', reason: SESSION_ENDING, bytesWritten: tx.bytesWritten };
      }
    } else if (wait) await wait;
    const r = await tx.write(keys[i]!);
    if (!r.ok) return fail(r.reason, r.bytesWritten);
  }
  return { outcome: 'accepted', bytesWritten: tx.bytesWritten };
}
