import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A local Slack for tests: the Web API methods the adapter calls (auth.test,
 * apps.connections.open, chat.postMessage) with Slack's real response shapes (HTTP 200 with
 * `{ok:false,error}`, 429 with Retry-After), and a Socket Mode WebSocket that sends `hello`,
 * delivers `events_api` envelopes, redelivers unacknowledged ones on the next connection
 * (as Slack does) and can send `disconnect` or drop the socket.
 */

export interface PostedMessage {
  readonly channel: string;
  readonly text: string;
  /** The raw JSON text of thread_ts as it arrived on the wire, to check it byte for byte. */
  readonly rawThreadTs: string | undefined;
  readonly ts: string;
}

interface Envelope {
  readonly envelope_id: string;
  readonly event: Record<string, unknown>;
  retry_attempt: number;
}

export const FAKE_BOT_USER_ID = 'UBOTSELF';

export class FakeSlack {
  readonly apiCalls: { method: string; at: number }[] = [];
  readonly posted: PostedMessage[] = [];
  readonly acks: string[] = [];
  /** Tokens Slack now rejects, and with which error string. */
  readonly rejectedTokens = new Map<string, string>();
  connectionsOpened = 0;
  /** Off: pings go unanswered, as on a half-open connection whose peer is gone. */
  answerPings = true;
  private readonly rateLimits = new Map<string, { seconds: number; times: number; style: 'http' | 'body' }>();
  private readonly pending = new Map<string, Envelope>();
  private readonly sockets = new Set<WebSocket>();
  private nextEnvelope = 1;
  private nextTs = 1;

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
  ) {}

  static async start(): Promise<FakeSlack> {
    const http = createServer();
    const wss = new WebSocketServer({ server: http, autoPong: false });
    const fake = new FakeSlack(http, wss);
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
    return `http://127.0.0.1:${this.port}/api/`;
  }

  get openSockets(): number {
    return this.sockets.size;
  }

  /** The next `times` calls of `method` answer 429 (`http`) or `{ok:false,error:'ratelimited'}` (`body`). */
  rateLimit(method: string, seconds: number, times = 1, style: 'http' | 'body' = 'http'): void {
    this.rateLimits.set(method, { seconds, times, style });
  }

  /** Delivers a `message` event in a fresh envelope to every open socket; returns its envelope id. */
  deliver(event: Record<string, unknown>): string {
    const envelope: Envelope = { envelope_id: `env-${this.nextEnvelope++}`, event, retry_attempt: 0 };
    this.pending.set(envelope.envelope_id, envelope);
    for (const socket of this.sockets) this.sendEnvelope(socket, envelope);
    return envelope.envelope_id;
  }

  /** Sends an already delivered envelope again (Slack retries envelopes it saw no ack for). */
  redeliver(envelopeId: string): void {
    const envelope = this.pending.get(envelopeId);
    if (!envelope) throw new Error(`no unacknowledged envelope ${envelopeId}`);
    envelope.retry_attempt++;
    for (const socket of this.sockets) this.sendEnvelope(socket, envelope);
  }

  sendDisconnect(reason = 'refresh_requested'): void {
    for (const socket of this.sockets) socket.send(JSON.stringify({ type: 'disconnect', reason }));
  }

  /** Cuts every socket without a close frame, as a network drop would. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.terminate();
    // Forgotten at once, so whatever is delivered next waits for the next connection.
    this.sockets.clear();
  }

  async waitFor(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('FakeSlack.waitFor timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.wss.close();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private sendEnvelope(socket: WebSocket, envelope: Envelope): void {
    socket.send(
      JSON.stringify({
        envelope_id: envelope.envelope_id,
        type: 'events_api',
        accepts_response_payload: false,
        retry_attempt: envelope.retry_attempt,
        retry_reason: envelope.retry_attempt > 0 ? 'timeout' : '',
        payload: {
          token: 'verification-token',
          team_id: 'T1',
          api_app_id: 'A1',
          type: 'event_callback',
          event_id: `Ev${envelope.envelope_id}`,
          event_time: Math.floor(Date.now() / 1000),
          event: envelope.event,
        },
      }),
    );
  }

  private onSocket(socket: WebSocket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('ping', (data) => {
      if (this.answerPings) socket.pong(data);
    });
    socket.on('message', (data) => {
      const { envelope_id } = JSON.parse(data.toString()) as { envelope_id?: string };
      if (envelope_id === undefined) return;
      this.acks.push(envelope_id);
      this.pending.delete(envelope_id);
    });
    socket.send(JSON.stringify({ type: 'hello', num_connections: this.sockets.size, connection_info: { app_id: 'A1' } }));
    for (const envelope of this.pending.values()) {
      envelope.retry_attempt++;
      this.sendEnvelope(socket, envelope);
    }
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    this.apiCalls.push({ method, at: Date.now() });
    const reply = (body: unknown, status = 200, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const limit = this.rateLimits.get(method);
    if (limit && limit.times > 0) {
      limit.times--;
      const headers = { 'retry-after': String(limit.seconds) };
      if (limit.style === 'http') return reply({ ok: false, error: 'ratelimited' }, 429, headers);
      return reply({ ok: false, error: 'ratelimited' }, 200, headers);
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token === undefined) return reply({ ok: false, error: 'not_authed' });
    const rejected = this.rejectedTokens.get(token);
    if (rejected !== undefined) return reply({ ok: false, error: rejected });
    switch (method) {
      case 'auth.test':
        if (!token.startsWith('xoxb-')) return reply({ ok: false, error: 'not_allowed_token_type' });
        return reply({ ok: true, url: 'https://fake.slack.com/', team: 'Fake', user: 'cccc', team_id: 'T1', user_id: FAKE_BOT_USER_ID, bot_id: 'B1' });
      case 'apps.connections.open':
        if (!token.startsWith('xapp-')) return reply({ ok: false, error: 'not_allowed_token_type' });
        this.connectionsOpened++;
        return reply({ ok: true, url: `ws://127.0.0.1:${this.port}/link/?ticket=${this.connectionsOpened}` });
      case 'chat.postMessage': {
        const body = JSON.parse(raw) as { channel?: string; text?: string };
        if (!body.channel) return reply({ ok: false, error: 'channel_not_found' });
        const rawThreadTs = /"thread_ts":("(?:[^"\\]|\\.)*"|[^,}]+)/.exec(raw)?.[1];
        const ts = `1710000${String(this.nextTs++).padStart(3, '0')}.000100`;
        this.posted.push({ channel: body.channel, text: body.text ?? '', rawThreadTs, ts });
        return reply({ ok: true, channel: body.channel, ts, message: { type: 'message', text: body.text, ts } });
      }
      default:
        return reply({ ok: false, error: 'unknown_method' });
    }
  }
}
