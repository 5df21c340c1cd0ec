import type { ServerResponse } from 'node:http';

export interface SseOptions {
  /** `: heartbeat` comment interval (§8.3: 30 s). */
  readonly heartbeatMs?: number;
  /**
   * The per-client bound: bytes written but not yet taken by the client's socket. A client that
   * falls further behind is disconnected (it resumes with Last-Event-ID), never skipped silently.
   */
  readonly maxQueuedBytes?: number;
}

export const DEFAULT_SSE_HEARTBEAT_MS = 30_000;
export const DEFAULT_SSE_MAX_QUEUED_BYTES = 1024 * 1024;

/** One SSE subscriber: frames `event:`/`id:`/`data:`, heartbeats, the bounded queue. */
export class SseClient {
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly maxQueuedBytes: number;
  private readonly onCloseCallbacks: Array<(reason: 'client' | 'overflow' | 'server') => void> = [];
  closeReason: 'client' | 'overflow' | 'server' | undefined;

  constructor(private readonly res: ServerResponse, options: SseOptions = {}) {
    this.maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_SSE_MAX_QUEUED_BYTES;
    if (!res.headersSent) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
    }
    res.on('close', () => this.close('client'));
    this.heartbeat = setInterval(() => this.comment('heartbeat'), options.heartbeatMs ?? DEFAULT_SSE_HEARTBEAT_MS);
    this.heartbeat.unref();
    this.comment('connected');
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(callback: (reason: 'client' | 'overflow' | 'server') => void): void {
    this.onCloseCallbacks.push(callback);
  }

  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  send(event: string, data: unknown, id?: string): void {
    let frame = `event: ${event}\n`;
    if (id) frame += `id: ${id.replace(/[\r\n]/g, '')}\n`;
    for (const line of JSON.stringify(data).split('\n')) frame += `data: ${line}\n`;
    this.write(frame + '\n');
  }

  private write(frame: string): void {
    if (this.closed) return;
    this.res.write(frame);
    if (this.res.writableLength > this.maxQueuedBytes) {
      // Fell behind: drop the connection rather than any single event.
      this.close('overflow');
      this.res.destroy();
    }
  }

  close(reason: 'client' | 'overflow' | 'server' = 'server'): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    clearInterval(this.heartbeat);
    if (reason === 'server' && !this.res.destroyed) this.res.end();
    for (const cb of this.onCloseCallbacks.splice(0)) cb(reason);
  }
}
