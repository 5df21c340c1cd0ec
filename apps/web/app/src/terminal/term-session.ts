import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { registerWriter } from './send-keys';
import { decodeFrame, encodeAck, encodeInput, encodeResize, termUrl, type TermHandshake } from './term-protocol';

// One actor terminal: xterm.js bound to the terminal WebSocket. Loaded lazily by TerminalView so
// xterm stays out of the main bundle.

export type TermMode = 'control' | 'viewer';

export interface TermStatus {
  readonly phase: 'connecting' | 'open' | 'closed';
  readonly mode: TermMode;
  readonly writable: boolean;
  readonly writerReplaced: boolean;
  readonly cols: number;
  readonly rows: number;
  /** The last refusal (input while read-only, a resize error) or why the stream closed. */
  readonly message: string | null;
  /** The stream ended for good (auth, or retries exhausted): only a manual reconnect helps. */
  readonly final: boolean;
}

const MAX_RETRIES = 5;

export class TermSession {
  private readonly term: Terminal;
  private readonly fit = new FitAddon();
  private readonly observer: ResizeObserver;
  private ws: WebSocket | null = null;
  private disposed = false;
  private retries = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private mode: TermMode = 'control';
  private writable = false;
  private ackFlow = false;
  /** Raw PTY cursor of everything xterm has parsed (what opcode 5 acknowledges). */
  private cursor = 0;
  private ackQueued = false;
  /**
   * Bytes up to this cursor are history (replay or snapshot): terminal-generated query replies
   * produced while parsing them must not reach the PTY (§8.11).
   */
  private liveFrom = 0;
  private awaitingSnapshot = false;
  /** The PTY's size as this client last learned it (snapshot) — kept by viewers. */
  private ptySize: { cols: number; rows: number } | null = null;
  private status: TermStatus;
  private readonly unregisterWriter: () => void;

  constructor(
    private readonly host: HTMLElement,
    private readonly groupId: string,
    private readonly actorId: string,
    private readonly onStatus: (s: TermStatus) => void,
  ) {
    const phone = window.matchMedia('(max-width: 760px)').matches;
    this.term = new Terminal({
      fontSize: phone ? 12 : 13,
      fontFamily: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
      scrollback: 5000,
      cursorBlink: false,
      allowProposedApi: false,
      theme: { background: '#0b0d10', foreground: '#e6e9ee' },
    });
    this.term.loadAddon(this.fit);
    this.term.open(host);
    this.status = { phase: 'connecting', mode: 'control', writable: false, writerReplaced: false, cols: this.term.cols, rows: this.term.rows, message: null, final: false };
    this.term.onData((d) => this.sendInput(d));
    this.term.onBinary((d) => this.sendInput(Uint8Array.from(d, (c) => c.charCodeAt(0) & 0xff)));
    this.term.onResize(({ cols, rows }) => {
      this.update({ cols, rows });
      // Only the writer sizes the shared PTY; viewers and read-only controls never do.
      if (this.mode === 'control' && this.writable && !this.awaitingSnapshot) this.send(encodeResize(cols, rows));
    });
    this.observer = new ResizeObserver(() => this.refit());
    this.observer.observe(host);
    // The actor card's keys go through this tab while it holds the writer role.
    this.unregisterWriter = registerWriter(groupId, actorId, (data) => {
      if (!this.writable || this.awaitingSnapshot || this.ws?.readyState !== WebSocket.OPEN) return false;
      this.send(encodeInput(data));
      return true;
    });
  }

  /** (Re)attach. A takeover makes this browser the writer and sizes the PTY to it atomically. */
  attach(mode: TermMode, takeover = false): void {
    this.retries = 0;
    this.connect(mode, takeover);
  }

  private connect(mode: TermMode, takeover = false): void {
    this.closeSocket();
    this.mode = mode;
    this.writable = false;
    this.awaitingSnapshot = false;
    if (mode === 'control') this.safeFit();
    const size = mode === 'control' ? { cols: this.term.cols, rows: this.term.rows } : {};
    const ws = new WebSocket(termUrl(window.location, this.groupId, this.actorId, { mode, takeover, ...size }));
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    // A retry keeps the last message up (why it is retrying); a manual attach clears it.
    this.update({ phase: 'connecting', mode, writable: false, final: false, ...(this.retries === 0 ? { message: null } : {}) });
    let attached = false;
    ws.onmessage = (e) => {
      if (this.ws !== ws || !(e.data instanceof ArrayBuffer)) return;
      attached = true;
      this.onFrame(e.data);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.writable = false;
      if (this.disposed) return;
      // 4401: the access token was revoked; never retry that by ourselves.
      const final = e.code === 4401 || this.retries >= MAX_RETRIES;
      // A refused upgrade (not running, not a PTY actor, no access) never got a handshake.
      const message =
        e.code === 4401 ? 'unauthorized' : !attached ? 'cannot attach: is the actor running?' : e.reason || (e.code === 1000 ? 'terminal stream ended' : 'disconnected');
      this.update({ phase: 'closed', writable: false, message, final });
      if (!final) {
        const delay = 500 * 2 ** this.retries++;
        this.retryTimer = setTimeout(() => this.connect(this.mode), delay);
      }
    };
  }

  private onFrame(buf: ArrayBuffer): void {
    const f = decodeFrame(buf);
    switch (f.op) {
      case 'handshake':
        return this.onHandshake(f.handshake);
      case 'snapshot': {
        const io = this.pendingSnapshot;
        if (io?.cols && io.rows) {
          // Parse the snapshot at the size it was rendered for, then refit (§8.11).
          this.ptySize = { cols: io.cols, rows: io.rows };
          this.term.resize(io.cols, io.rows);
        }
        this.term.reset();
        this.term.write(f.data, () => {
          this.cursor = io?.cursor ?? this.cursor;
          this.awaitingSnapshot = false;
          this.queueAck();
          this.refit();
        });
        return;
      }
      case 'output': {
        const n = f.data.length;
        this.term.write(f.data, () => {
          this.cursor += n;
          this.queueAck();
        });
        return;
      }
      case 'writable':
        this.writable = f.writable;
        this.update({ writable: f.writable, message: f.writable ? null : 'another browser took control' });
        if (f.writable) this.refit();
        return;
      case 'inputError':
        this.update({ message: `${f.error.code ?? 'error'}: ${f.error.message ?? ''}` });
        return;
      default:
        return;
    }
  }

  private pendingSnapshot: TermHandshake['initial_output'];

  private onHandshake(hs: TermHandshake): void {
    this.retries = 0;
    this.writable = hs.terminal_writable;
    this.ackFlow = hs.output_flow_control?.protocol === 'ack_v1';
    const io = hs.initial_output;
    this.pendingSnapshot = io;
    this.awaitingSnapshot = io?.kind === 'snapshot' && io.bytes > 0;
    this.cursor = io?.kind === 'snapshot' ? io.cursor : hs.replay_cursor;
    this.liveFrom = io?.kind === 'snapshot' ? io.cursor : hs.replay_end_cursor;
    // A reattach starts from a clean screen: the snapshot or the replay redraws it.
    if (!this.awaitingSnapshot) this.term.reset();
    this.update({ phase: 'open', mode: hs.terminal_mode, writable: hs.terminal_writable, writerReplaced: hs.writer_replaced, message: null, final: false });
    if (!this.awaitingSnapshot) this.refit(true);
  }

  /** Control writers follow their viewport; everyone else keeps the PTY's size and scrolls. */
  private refit(forceResizeFrame = false): void {
    if (this.mode === 'control' && this.writable) {
      const before = `${this.term.cols}x${this.term.rows}`;
      this.safeFit();
      // fit() only fires onResize on a change; the PTY may still have another size.
      if (forceResizeFrame && before === `${this.term.cols}x${this.term.rows}`) this.send(encodeResize(this.term.cols, this.term.rows));
    } else if (this.ptySize && (this.term.cols !== this.ptySize.cols || this.term.rows !== this.ptySize.rows)) {
      this.term.resize(this.ptySize.cols, this.ptySize.rows);
    } else if (!this.ptySize) {
      this.safeFit();
    }
  }

  private safeFit(): void {
    try {
      const d = this.fit.proposeDimensions();
      // xterm reports nothing useful while the host is hidden (a collapsed phone pane).
      if (d && d.cols >= 10 && d.rows >= 2) this.fit.fit();
    } catch {
      // not laid out yet
    }
  }

  private queueAck(): void {
    if (!this.ackFlow || this.ackQueued) return;
    this.ackQueued = true;
    // One ack per parsed batch is enough: the cursor only grows.
    setTimeout(() => {
      this.ackQueued = false;
      this.send(encodeAck(this.cursor));
    }, 0);
  }

  private sendInput(data: string | Uint8Array): void {
    if (this.awaitingSnapshot || this.cursor < this.liveFrom) return; // query replies to history
    if (!this.writable) {
      this.update({ message: this.mode === 'viewer' ? 'view only: what you type is not sent (Take control to type)' : 'read-only: take control to type' });
      return;
    }
    this.send(encodeInput(data));
  }

  private send(frame: Uint8Array<ArrayBuffer>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(frame);
  }

  private update(patch: Partial<TermStatus>): void {
    this.status = { ...this.status, ...patch };
    this.onStatus(this.status);
  }

  focus(): void {
    this.term.focus();
  }

  scrollPages(n: number): void {
    this.term.scrollPages(n);
  }

  private closeSocket(): void {
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  dispose(): void {
    this.disposed = true;
    this.unregisterWriter();
    this.closeSocket();
    this.observer.disconnect();
    this.term.dispose();
  }
}
