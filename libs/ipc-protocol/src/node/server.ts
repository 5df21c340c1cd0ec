import { createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { NdjsonDecoder, encodeLineText } from '../codec.js';
import { encodeResponseLine } from '../preserialized.js';
import { errorResponse } from '../envelope.js';
import { ErrorCodes } from '../errors.js';
import { MAX_REQUEST_LINE_BYTES } from '../limits.js';
import type { OpRouter } from '../router.js';
import { socketConnection } from './socket-connection.js';
import { DeadlineSweep, type DeadlineEntry } from './deadline-sweep.js';

export interface IpcServerOptions {
  readonly maxLineBytes?: number;
  /** An idle request/response connection is closed after this long (half-open peers). */
  readonly idleTimeoutMs?: number;
  /** Stop reading from a peer with this many unanswered lines queued (it is not reading us). */
  readonly maxQueuedLines?: number;
  /**
   * A request line must be complete this long after the connection opened, or after its first
   * byte arrived (slowloris peers, clients that connect and say nothing). Default 10 s.
   */
  readonly handshakeTimeoutMs?: number;
  /** Connections served at once; one more is answered `too_many_connections` and closed. Default 1,024. */
  readonly maxConnections?: number;
}

export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_CONNECTIONS = 1024;

export type IpcListenTarget = { readonly path: string } | { readonly host: string; readonly port: number };

/**
 * NDJSON request/response over stream sockets (§4.2): lines of one connection are served
 * strictly in order; connections never wait on each other; oversize lines get
 * `invalid_request` and a close; an op that upgrades takes the socket over.
 */
export class IpcServer implements AsyncDisposable {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly maxLineBytes: number;
  private readonly idleTimeoutMs: number;
  private readonly maxQueuedLines: number;
  private readonly handshakeTimeoutMs: number;
  private readonly maxConnections: number;
  private readonly deadlines: DeadlineSweep;

  constructor(private readonly router: OpRouter, options: IpcServerOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_REQUEST_LINE_BYTES;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000;
    this.maxQueuedLines = options.maxQueuedLines ?? 64;
    this.handshakeTimeoutMs = options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
    this.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    this.deadlines = new DeadlineSweep(this.idleTimeoutMs, DeadlineSweep.periodFor(this.handshakeTimeoutMs, this.idleTimeoutMs));
    this.server = createServer({ allowHalfOpen: false }, (socket) => this.accept(socket));
    this.server.on('error', () => {});
  }

  async listen(target: IpcListenTarget): Promise<{ path?: string; host?: string; port?: number }> {
    const listening = once(this.server, 'listening');
    const failed = once(this.server, 'error').then(([err]) => Promise.reject(err));
    if ('path' in target) this.server.listen(target.path);
    else this.server.listen(target.port, target.host);
    await Promise.race([listening, failed]);
    const addr = this.server.address();
    if (addr && typeof addr === 'object') return { host: addr.address, port: addr.port };
    return { path: typeof addr === 'string' ? addr : undefined };
  }

  get connectionCount(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** One error line, then the connection ends (and is cut if the peer does not read it). */
  private refuse(socket: Socket, code: string, message: string, details: Record<string, unknown>): void {
    socket.end(encodeLineText(errorResponse(code, message, details)));
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  private accept(socket: Socket): void {
    socket.on('error', () => socket.destroy());
    if (this.sockets.size >= this.maxConnections) {
      this.refuse(socket, ErrorCodes.tooManyConnections, `the daemon serves at most ${this.maxConnections} connections at once; retry later`, { limit: this.maxConnections });
      return;
    }
    this.sockets.add(socket);

    // The deadline of the request line being read: armed at connect and at the first byte of
    // each later line, disarmed once the line is complete (an idle connection between requests
    // has only the idle timeout) and for good when the connection upgrades to a stream. Both
    // are checked by the shared sweep (deadline-sweep.ts), not by timers of this connection.
    const deadlines: DeadlineEntry = {
      lineDeadline: Infinity,
      lastActive: this.deadlines.now(),
      idleApplies: true,
      onLineTimeout: () => {
        socket.off('data', onData);
        this.refuse(socket, ErrorCodes.requestTimeout, `no complete request line within ${this.handshakeTimeoutMs} ms`, { timeout_ms: this.handshakeTimeoutMs });
      },
      onIdleTimeout: () => socket.destroy(),
    };
    const disarm = () => {
      deadlines.lineDeadline = Infinity;
    };
    const arm = () => {
      if (deadlines.lineDeadline === Infinity) deadlines.lineDeadline = this.deadlines.now() + this.handshakeTimeoutMs;
    };
    this.deadlines.add(deadlines);
    socket.on('close', () => {
      this.deadlines.delete(deadlines);
      this.sockets.delete(socket);
    });
    arm();

    const decoder = new NdjsonDecoder(this.maxLineBytes);
    const queue: Array<{ kind: 'line'; text: string } | { kind: 'bad'; reply: string; close: boolean }> = [];
    let busy = false;
    let upgraded = false;

    const pump = async () => {
      if (busy) return;
      busy = true;
      try {
        while (queue.length > 0 && !socket.destroyed && !upgraded) {
          const item = queue.shift()!;
          // Only a paused socket: resume() on a flowing one still schedules a tick and a read(0).
          if (queue.length < this.maxQueuedLines / 2 && socket.isPaused()) socket.resume();
          if (item.kind === 'bad') {
            socket.write(item.reply);
            if (item.close) {
              socket.end();
              setTimeout(() => socket.destroy(), 1000).unref();
              return;
            }
            continue;
          }
          const dispatched = await this.router.dispatchLine(item.text);
          if (socket.destroyed) return;
          const flushed = socket.write(encodeResponseLine(dispatched.response));
          deadlines.lastActive = this.deadlines.now();
          if (dispatched.upgrade) {
            upgraded = true;
            this.deadlines.delete(deadlines);
            socket.off('data', onData);
            socket.pause();
            const leftover = [
              ...queue.splice(0).map((q) => Buffer.from(q.kind === 'line' ? q.text + '\n' : '')),
              Buffer.from(decoder.takeBuffered()),
            ];
            dispatched.upgrade(socketConnection(socket, Buffer.concat(leftover)));
            return;
          }
          if (!flushed) await once(socket, 'drain').catch(() => undefined);
        }
      } finally {
        busy = false;
      }
    };

    const onData = (chunk: Buffer) => {
      deadlines.lastActive = this.deadlines.now();
      const lines = decoder.push(chunk);
      if (lines.length > 0) disarm();
      if (decoder.pendingBytes > 0 && !upgraded) arm();
      for (const line of lines) {
        if (line.kind === 'line') queue.push(line);
        else if (line.kind === 'invalid_utf8') {
          queue.push({ kind: 'bad', reply: encodeLineText(errorResponse(ErrorCodes.invalidRequest, 'request line is not valid UTF-8')), close: false });
        } else {
          socket.off('data', onData);
          socket.pause();
          queue.push({
            kind: 'bad',
            reply: encodeLineText(
              errorResponse(ErrorCodes.invalidRequest, `request line exceeds ${line.limit} bytes`, { limit: line.limit }),
            ),
            close: true,
          });
        }
      }
      if (queue.length >= this.maxQueuedLines) socket.pause();
      void pump();
    };
    socket.on('data', onData);
  }
}
