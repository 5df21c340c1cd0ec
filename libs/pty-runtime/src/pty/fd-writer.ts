import { write as fsWrite } from 'node:fs';
import { PtyWriteError } from './pty-session.js';

interface Job {
  readonly buffer: Uint8Array;
  offset: number;
  readonly resolve: () => void;
  readonly reject: (err: PtyWriteError) => void;
}

/**
 * Writes to the PTY master fd directly, because node-pty's own `write` returns nothing: it can
 * say neither when bytes reached the kernel nor that they never did, and delivery must tell
 * `accepted` from `failed` from `ambiguous`. The fd is nonblocking; EAGAIN (a full kernel
 * buffer, i.e. the agent is not reading) is retried with a short backoff so the event loop
 * stays responsive.
 */
export class FdWriter {
  private queue: Job[] = [];
  private running = false;
  private closedReason: string | undefined;

  constructor(private readonly fd: number) {}

  write(data: Uint8Array): Promise<void> {
    if (this.closedReason !== undefined) {
      return Promise.reject(new PtyWriteError('pty_closed', 0, `pty closed: ${this.closedReason}`));
    }
    if (data.byteLength === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ buffer: data, offset: 0, resolve, reject });
      if (!this.running) this.pump(0);
    });
  }

  /** Fails queued writes; a write already inside the kernel call reports what it got. */
  close(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    const queued = this.running ? this.queue.splice(1) : this.queue.splice(0);
    for (const job of queued) job.reject(new PtyWriteError('pty_closed', job.offset, `pty closed: ${reason}`));
  }

  private pump(eagainCount: number): void {
    const job = this.queue[0];
    if (!job) {
      this.running = false;
      return;
    }
    if (this.closedReason !== undefined) {
      this.queue.shift();
      job.reject(new PtyWriteError('pty_closed', job.offset, `pty closed: ${this.closedReason}`));
      return this.pump(0);
    }
    this.running = true;
    fsWrite(this.fd, job.buffer, job.offset, job.buffer.byteLength - job.offset, null, (err, written) => {
      if (err) {
        if (err.code === 'EAGAIN' && this.closedReason === undefined) {
          // Back off progressively: a busy agent may not read for seconds.
          const delay = eagainCount < 4 ? 0 : Math.min(20, eagainCount);
          if (delay === 0) setImmediate(() => this.pump(eagainCount + 1));
          else setTimeout(() => this.pump(eagainCount + 1), delay);
          return;
        }
        this.queue.shift();
        const code = this.closedReason !== undefined || err.code === 'EIO' || err.code === 'EBADF' ? 'pty_closed' : 'pty_write_failed';
        job.reject(new PtyWriteError(code, job.offset, `pty write failed: ${err.message}`, { cause: err }));
        return this.pump(0);
      }
      job.offset += written;
      if (job.offset >= job.buffer.byteLength) {
        this.queue.shift();
        job.resolve();
      }
      this.pump(0);
    });
  }
}
