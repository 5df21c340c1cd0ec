import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A local Discord for tests: REST (GET /gateway/bot, POST /channels/{id}/messages) with
 * Discord's status codes, JSON error bodies, 429 `retry_after` and X-RateLimit headers, and a
 * gateway WebSocket speaking the v10 opcodes: HELLO, heartbeat/ACK, IDENTIFY → READY,
 * RESUME → replay of missed dispatches + RESUMED, RECONNECT, INVALID_SESSION, close 4004.
 */

export const FAKE_BOT_ID = '900000000000000001';

export interface GatewayFrame {
  readonly op: number;
  readonly d: unknown;
}

export interface PostedMessage {
  readonly channelId: string;
  readonly body: { content?: string; allowed_mentions?: unknown };
  readonly at: number;
}

interface Dispatch {
  readonly s: number;
  readonly t: string;
  readonly d: unknown;
}

interface Session {
  readonly id: string;
  readonly dispatches: Dispatch[];
  seq: number;
  socket: WebSocket | undefined;
}

export class FakeDiscord {
  /** Every gateway payload the client sent, in order, per connection index. */
  readonly received: GatewayFrame[] = [];
  readonly posted: PostedMessage[] = [];
  readonly restCalls: { method: string; path: string; at: number }[] = [];
  readonly rejectedTokens = new Set<string>();
  heartbeatIntervalMs = 41_250;
  ackHeartbeats = true;
  connections = 0;
  private readonly sockets = new Set<WebSocket>();
  private readonly sessions = new Map<string, Session>();
  private current: Session | undefined;
  private nextSession = 1;
  private nextMessage = 1n;
  private rateLimit: { seconds: number; global: boolean } | undefined;
  private exhaustBucketFor: number | undefined;

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
  ) {}

  static async start(): Promise<FakeDiscord> {
    const http = createServer();
    const wss = new WebSocketServer({ server: http });
    const fake = new FakeDiscord(http, wss);
    http.on('request', (req, res) => void fake.onRequest(req, res));
    wss.on('connection', (socket) => fake.onSocket(socket));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    return fake;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  get apiBaseUrl(): string {
    return `http://127.0.0.1:${this.port}/api/v10/`;
  }

  get openSockets(): number {
    return this.sockets.size;
  }

  ops(op: number): GatewayFrame[] {
    return this.received.filter((frame) => frame.op === op);
  }

  /** The next REST call answers 429 with this retry_after (seconds, may be fractional). */
  rateLimitNext(seconds: number, global = false): void {
    this.rateLimit = { seconds, global };
  }

  /** The next successful REST call reports its bucket empty for `resetAfter` seconds. */
  exhaustBucket(resetAfterSeconds: number): void {
    this.exhaustBucketFor = resetAfterSeconds;
  }

  /** Dispatches MESSAGE_CREATE in the current session (kept for RESUME replay); returns its s. */
  dispatchMessage(message: Partial<Record<string, unknown>> & { id?: string; content: string }): number {
    const session = this.current;
    if (!session) throw new Error('no gateway session yet');
    const data = {
      id: message.id ?? String(1_200_000_000_000_000_000n + this.nextMessage++),
      channel_id: '300000000000000003',
      guild_id: '200000000000000002',
      author: { id: '400000000000000004', username: 'alice', global_name: 'Alice', bot: false },
      timestamp: '2026-12-06T10:00:00.000000+00:00',
      type: 0,
      ...message,
    };
    session.seq++;
    const dispatch = { s: session.seq, t: 'MESSAGE_CREATE', d: data };
    session.dispatches.push(dispatch);
    if (session.socket) this.send(session.socket, { op: 0, ...dispatch });
    return session.seq;
  }

  sendReconnect(): void {
    for (const socket of this.sockets) this.send(socket, { op: 7, d: null });
  }

  invalidateSession(resumable: boolean): void {
    if (!resumable && this.current) this.sessions.delete(this.current.id);
    for (const socket of this.sockets) this.send(socket, { op: 9, d: resumable });
  }

  closeWith(code: number): void {
    for (const socket of this.sockets) socket.close(code);
  }

  /** Cuts every socket without a close frame (close code 1006 on the client), as a network drop. */
  dropConnections(): void {
    // Detached at once, so whatever is dispatched next is only kept for a RESUME replay.
    for (const session of this.sessions.values()) session.socket = undefined;
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
  }

  async waitFor(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('FakeDiscord.waitFor timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.wss.close();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private send(socket: WebSocket, payload: object): void {
    socket.send(JSON.stringify({ s: null, t: null, ...payload }));
  }

  private onSocket(socket: WebSocket): void {
    this.connections++;
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      for (const session of this.sessions.values()) if (session.socket === socket) session.socket = undefined;
    });
    socket.on('message', (data) => this.onFrame(socket, JSON.parse(data.toString()) as GatewayFrame));
    this.send(socket, { op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs } });
  }

  private onFrame(socket: WebSocket, frame: GatewayFrame): void {
    this.received.push(frame);
    const d = frame.d as Record<string, unknown> | null;
    switch (frame.op) {
      case 1:
        if (this.ackHeartbeats) this.send(socket, { op: 11 });
        return;
      case 2: {
        if (this.rejectedTokens.has(String(d?.['token']))) return void socket.close(4004, 'Authentication failed.');
        const session: Session = { id: `session-${this.nextSession++}`, dispatches: [], seq: 0, socket };
        this.sessions.set(session.id, session);
        this.current = session;
        session.seq++;
        const ready = {
          s: session.seq,
          t: 'READY',
          d: {
            v: 10,
            user: { id: FAKE_BOT_ID, username: 'cccc', bot: true },
            guilds: [],
            session_id: session.id,
            resume_gateway_url: `ws://127.0.0.1:${this.port}/resume`,
            application: { id: FAKE_BOT_ID, flags: 0 },
          },
        };
        session.dispatches.push(ready);
        this.send(socket, { op: 0, ...ready });
        return;
      }
      case 6: {
        if (this.rejectedTokens.has(String(d?.['token']))) return void socket.close(4004, 'Authentication failed.');
        const session = this.sessions.get(String(d?.['session_id']));
        if (!session) return this.send(socket, { op: 9, d: false });
        session.socket = socket;
        this.current = session;
        const after = typeof d?.['seq'] === 'number' ? d['seq'] : 0;
        for (const dispatch of session.dispatches) if (dispatch.s > after) this.send(socket, { op: 0, ...dispatch });
        session.seq++;
        const resumed = { s: session.seq, t: 'RESUMED', d: {} };
        session.dispatches.push(resumed);
        this.send(socket, { op: 0, ...resumed });
        return;
      }
    }
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').replace(/^\/api\/v10\//, '').split('?')[0] ?? '';
    this.restCalls.push({ method: req.method ?? '', path, at: Date.now() });
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const token = /^Bot (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token === undefined || this.rejectedTokens.has(token)) return reply(401, { message: '401: Unauthorized', code: 0 });
    if (this.rateLimit) {
      const { seconds, global } = this.rateLimit;
      this.rateLimit = undefined;
      return reply(
        429,
        { message: 'You are being rate limited.', retry_after: seconds, global },
        {
          'retry-after': String(Math.ceil(seconds)),
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset-after': String(seconds),
          'x-ratelimit-bucket': 'fakebucket',
          ...(global ? { 'x-ratelimit-global': 'true' } : { 'x-ratelimit-scope': 'user' }),
        },
      );
    }
    const bucket: Record<string, string> = { 'x-ratelimit-limit': '5', 'x-ratelimit-bucket': 'fakebucket' };
    if (this.exhaustBucketFor !== undefined) {
      Object.assign(bucket, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': String(this.exhaustBucketFor) });
      this.exhaustBucketFor = undefined;
    } else {
      Object.assign(bucket, { 'x-ratelimit-remaining': '4', 'x-ratelimit-reset-after': '1.000' });
    }
    if (req.method === 'GET' && path === 'gateway/bot') {
      return reply(200, {
        url: `ws://127.0.0.1:${this.port}`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      });
    }
    const post = /^channels\/(\d+)\/messages$/.exec(path);
    if (req.method === 'POST' && post) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as PostedMessage['body'];
      if (!body.content) return reply(400, { message: 'Cannot send an empty message', code: 50006 }, bucket);
      this.posted.push({ channelId: post[1]!, body, at: Date.now() });
      const id = String(1_300_000_000_000_000_000n + this.nextMessage++);
      return reply(200, { id, channel_id: post[1], content: body.content, author: { id: FAKE_BOT_ID, bot: true } }, bucket);
    }
    return reply(404, { message: '404: Not Found', code: 0 });
  }
}
