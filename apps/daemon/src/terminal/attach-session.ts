import type { UpgradedConnection } from '@cccc/ipc-protocol';
import { DisposableStore, InputTransaction, type ActorTerminal, type AttachmentGrant, type OutputChunk, type TerminalSession } from '@cccc/pty-runtime';
import { attachCounters, attachTuning } from './attach-tuning.js';

export interface AttachSessionOptions {
  readonly terminal: ActorTerminal;
  /** The PTY session this attachment belongs to; its output and its input lane only. */
  readonly session: TerminalSession;
  readonly grant: AttachmentGrant;
  /** Raw cursor the stream starts at (replay_cursor, or the snapshot's cursor). */
  readonly startCursor: number;
  /** snapshot_v1 bytes written before any raw byte (they take no raw cursor space). */
  readonly prefix?: string | undefined;
  readonly onClose?: (reason: string) => void;
  /** Writer input reached the PTY, as the chunks the client sent (the daemon watches it for interrupts). */
  readonly onInputWritten?: (chunks: readonly Uint8Array[]) => void;
}

/**
 * One term_attach stream. Output is pulled from the session's ring by a send cursor, so replay,
 * live bytes and catching up after backpressure are one loop; an attachment whose cursor falls
 * out of the retained window is closed rather than buffered without bound. Writer input is
 * written batch by batch on the session's input lane, bound to that session.
 */
export class AttachSession implements Disposable {
  private connection: UpgradedConnection | undefined;
  private sendCursor: number;
  private readonly store = new DisposableStore();
  private inputQueue: Uint8Array[] = [];
  private queuedInputBytes = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Output arrived during the current coalescing window. */
  private pendingOutput = false;
  private inputRunning = false;
  private ended = false;
  private readonly startTimer: NodeJS.Timeout;

  constructor(private readonly options: AttachSessionOptions) {
    this.sendCursor = options.startCursor;
    // The transport skips `start` when the client left while the handshake was being built;
    // without this the attachment (and maybe the writer role) would be held forever.
    this.startTimer = setTimeout(() => this.end('stream never started'), attachTuning.startTimeoutMs);
    this.startTimer.unref();
  }

  get attachmentId(): number {
    return this.options.grant.attachmentId;
  }

  get closed(): boolean {
    return this.ended;
  }

  start(connection: UpgradedConnection): void {
    clearTimeout(this.startTimer);
    if (this.ended) return connection.close();
    this.connection = connection;
    const { session, terminal } = this.options;
    // Ring pages written as views stay unreused until the socket has handed them to the OS.
    this.store.add(session.ring.pin(() => this.sendCursor - connection.pendingBytes));
    this.store.add(connection.onClose(() => this.end('client closed')));
    this.store.add(connection.onDrain(() => this.pump()));
    this.store.add(connection.onData((chunk) => this.onInput(chunk)));
    this.store.add(session.onOutput((chunk) => this.onOutput(chunk)));
    this.store.add(session.onExit(() => this.finish('agent exited')));
    this.store.add(terminal.onSessionStarted((s) => s !== session && this.end('session replaced')));
    if (this.options.prefix) connection.write(this.options.prefix);
    this.pump();
    if (terminal.session !== session) this.end('session replaced');
    else if (session.exited) this.finish('agent exited');
  }

  /**
   * Output is coalesced (VS Code's pty host does the same): the first chunk after a quiet spell
   * goes out at once, so keystroke echo is not delayed; chunks that follow go out together once
   * per `coalesceMs` window for as long as output keeps coming. PTY reads are ~4 KiB, so a flood
   * would otherwise cost one socket write per 4 KiB on both ends.
   */
  private onOutput(_chunk: OutputChunk): void {
    if (this.ended || !this.connection) return;
    if (this.flushTimer) {
      this.pendingOutput = true;
      return;
    }
    this.pump();
    this.armFlush();
  }

  private armFlush(): void {
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      if (!this.pendingOutput) return; // a quiet window: the next chunk is written at once
      this.pendingOutput = false;
      this.pump();
      this.armFlush();
    }, attachTuning.coalesceMs);
  }

  private pump(): void {
    const c = this.connection;
    const ring = this.options.session.ring;
    while (c && !this.ended) {
      if (this.sendCursor < ring.startCursor) {
        attachCounters.fellBehind++;
        return this.end('fell behind the retained output window');
      }
      if (c.pendingBytes >= attachTuning.maxPendingBytes) return; // resumes on drain
      const end = ring.endCursor;
      if (this.sendCursor >= end) return;
      const to = Math.min(end, this.sendCursor + attachTuning.chunkBytes);
      // Views of the ring's pages, not copies: the pin taken in start() keeps them intact.
      const views = ring.views(this.sendCursor, to);
      this.sendCursor = to;
      if (views.length > 1 && c.writev) c.writev(views);
      else for (const view of views) c.write(view);
    }
  }

  private onInput(chunk: Uint8Array): void {
    if (this.ended) return;
    // Viewers and control attachments without the writer role are read-only: input is dropped.
    if (!this.options.terminal.attachments.isWriter(this.attachmentId)) return;
    this.inputQueue.push(chunk);
    this.queuedInputBytes += chunk.byteLength;
    if (this.queuedInputBytes > attachTuning.maxQueuedInputBytes) {
      attachCounters.inputOverflow++;
      return this.end('input queue overflow: the terminal is not taking input');
    }
    if (!this.inputRunning) void this.writeInput();
  }

  private async writeInput(): Promise<void> {
    this.inputRunning = true;
    const { terminal, session } = this.options;
    try {
      while (this.inputQueue.length > 0 && !this.ended) {
        const chunks = this.inputQueue.splice(0);
        const batch = Buffer.concat(chunks);
        this.queuedInputBytes = 0;
        // Ownership is checked before each transaction starts; a taken-over writer's queue is dropped.
        if (!terminal.attachments.isWriter(this.attachmentId)) continue;
        const tx = new InputTransaction(terminal, session);
        if (!tx.live) return this.end('session ended');
        const stall = setTimeout(() => {
          attachCounters.inputStalled++;
          this.end('input batch not written within the stall limit');
        }, attachTuning.inputStallMs);
        const result = await session.runExclusive(() => tx.write(batch)).finally(() => clearTimeout(stall));
        if (!result.ok) {
          attachCounters.inputFailed++;
          return this.end(`input write failed: ${result.reason}`);
        }
        this.options.onInputWritten?.(chunks);
      }
    } finally {
      this.inputRunning = false;
    }
  }

  /** The agent exited: flush what is queued, then close. */
  private finish(reason: string): void {
    if (this.ended) return;
    this.pump();
    const c = this.connection;
    // The transport has no half-close: wait (bounded) for the queue to reach the OS, then close.
    const deadline = Date.now() + 5000;
    const poll = () => {
      if (this.ended) return;
      if (!c || c.pendingBytes === 0 || Date.now() > deadline) return this.end(reason);
      const t = setTimeout(poll, 20);
      this.store.add({ [Symbol.dispose]: () => clearTimeout(t) });
    };
    poll();
  }

  /** Close the stream and release this attachment (and its writer role). */
  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.startTimer);
    clearTimeout(this.flushTimer);
    this.inputQueue = [];
    this.queuedInputBytes = 0;
    this.options.terminal.attachments.detach(this.attachmentId);
    this.store[Symbol.dispose]();
    this.connection?.close();
    this.options.onClose?.(reason);
  }

  [Symbol.dispose](): void {
    this.end('disposed');
  }
}
