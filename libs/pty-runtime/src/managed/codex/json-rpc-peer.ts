import WebSocket from 'ws';
import { Emitter } from '../../events.js';

// JSON-RPC as codex's app-server speaks it: one JSON object per WebSocket text message (the
// unix-socket listener is a WebSocket endpoint, the same one the remote TUI connects to), no
// "jsonrpc" member. Requests we send carry numeric ids; the server's own requests (approvals)
// carry its ids, answered with `respond`.

export interface RpcNotification {
  readonly method: string;
  readonly params: unknown;
}

export interface RpcServerRequest {
  readonly id: string | number;
  readonly method: string;
  readonly params: unknown;
}

export class RpcError extends Error {
  constructor(
    readonly rpcCode: number | undefined,
    message: string,
    /** true when the request may have reached the server (the connection broke after sending). */
    readonly maybeDelivered: boolean,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: RpcError): void;
}

export class JsonRpcPeer implements Disposable {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly notifications = new Emitter<RpcNotification>();
  private readonly requests = new Emitter<RpcServerRequest>();
  private readonly closedEmitter = new Emitter<void>();
  private closed = false;
  readonly onNotification = this.notifications.event;
  readonly onRequest = this.requests.event;
  readonly onClose = this.closedEmitter.event;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.receive(String(data)));
    socket.on('close', () => this.close());
    socket.on('error', () => this.close());
  }

  /** Connects to a `unix://` app-server listener (retrying while it is not yet accepting). */
  static async connectUnix(socketPath: string, timeoutMs: number, signal?: AbortSignal): Promise<JsonRpcPeer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const socket = await new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws+unix://${socketPath}:/`);
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        });
        return new JsonRpcPeer(socket);
      } catch (error) {
        if (Date.now() > deadline || signal?.aborted) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  request<T>(method: string, params: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new RpcError(undefined, 'connection closed', false));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }), (error) => {
        if (error && this.pending.delete(id)) reject(new RpcError(undefined, `send failed: ${error.message}`, false));
      });
    });
  }

  notify(method: string, params?: unknown): void {
    if (!this.closed) this.socket.send(JSON.stringify(params === undefined ? { method } : { method, params }));
  }

  respond(id: string | number, result: unknown): void {
    if (!this.closed) this.socket.send(JSON.stringify({ id, result }));
  }

  respondError(id: string | number, code: number, message: string): void {
    if (!this.closed) this.socket.send(JSON.stringify({ id, error: { code, message } }));
  }

  private receive(text: string): void {
    let message: { id?: string | number; method?: string; params?: unknown; result?: unknown; error?: { code?: number; message?: string } };
    try {
      message = JSON.parse(text);
    } catch {
      return; // not ours to interpret; the server never sends partial objects per message
    }
    if (message.method !== undefined && message.id !== undefined) {
      this.requests.fire({ id: message.id, method: message.method, params: message.params });
    } else if (message.method !== undefined) {
      this.notifications.fire({ method: message.method, params: message.params });
    } else if (typeof message.id === 'number') {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error) pending.reject(new RpcError(message.error.code, message.error.message ?? 'error', false));
      else pending.resolve(message.result);
    }
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) p.reject(new RpcError(undefined, 'connection closed before the answer', true));
    this.pending.clear();
    this.closedEmitter.fire();
  }

  [Symbol.dispose](): void {
    this.socket.terminate();
    this.close();
    this.notifications[Symbol.dispose]();
    this.requests[Symbol.dispose]();
    this.closedEmitter[Symbol.dispose]();
  }
}
