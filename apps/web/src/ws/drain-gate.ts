/** What the gate reads of a WebSocket: how much it still holds for the browser. */
export interface BufferedSink {
  readonly bufferedAmount: number;
  readonly readyState: number;
  readonly OPEN: number;
}

/** What the gate stops and starts: the daemon stream feeding the sink. */
export interface PausableSource {
  pause(): unknown;
  resume(): unknown;
}

/**
 * Backpressure from a browser that stops reading: past `maxBuffered` bytes held in the
 * WebSocket, stop reading the source; resume once the browser has taken half of it. The source
 * (a daemon `term_attach` stream) then stops reading the terminal ring for this viewer, so a
 * stuck browser holds at most about `maxBuffered` here and nothing is dropped.
 */
export class DrainGate implements Disposable {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: BufferedSink,
    private readonly source: PausableSource,
    private readonly maxBuffered: number,
    /** Another reason the source is paused (ack flow control): the gate never resumes over it. */
    private readonly heldElsewhere: () => boolean = () => false,
    private readonly pollMs = 25,
  ) {}

  get holding(): boolean {
    return this.timer !== undefined;
  }

  /** Call after each write to the sink. */
  check(): void {
    if (this.timer || this.sink.bufferedAmount <= this.maxBuffered) return;
    this.source.pause();
    this.timer = setInterval(() => {
      if (this.sink.readyState !== this.sink.OPEN || this.sink.bufferedAmount > this.maxBuffered / 2) return;
      this[Symbol.dispose]();
      if (!this.heldElsewhere()) this.source.resume();
    }, this.pollMs);
    this.timer.unref();
  }

  [Symbol.dispose](): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
