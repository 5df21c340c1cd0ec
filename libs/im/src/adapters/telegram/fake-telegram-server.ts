import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSentMessage {
  readonly token: string;
  readonly chat_id: string | number;
  readonly text: string;
  readonly message_thread_id?: number | string;
  readonly message_id: number;
}

type Fault = { kind: '429'; retryAfterS: number } | { kind: 'drop' } | { kind: '500' };

/**
 * A local stand-in for the Telegram Bot API (`/bot<token>/<method>`), speaking its response
 * shapes: getUpdates with offset confirmation and long polling, sendMessage, 401 for a revoked
 * token, 429 with parameters.retry_after, 409 when a second getUpdates for one token overlaps a
 * running one (as Telegram does), and injectable dropped connections.
 */
export class FakeTelegramServer {
  readonly sent: FakeSentMessage[] = [];
  /** getUpdates calls that overlapped another one for the same token (409 answered). */
  conflicts = 0;
  getUpdatesCalls = 0;
  private readonly queues = new Map<string, Array<{ update_id: number; [k: string]: unknown }>>();
  private readonly valid = new Set<string>();
  private readonly polling = new Set<string>();
  private readonly faults: Array<{ method: string; fault: Fault }> = [];
  private readonly waiters = new Set<() => void>();
  private nextUpdateId = 100_000;
  private nextMessageId = 1;
  private server: Server | undefined;
  url = '';

  constructor(private readonly maxHoldMs = 500) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  addBot(token: string): void {
    this.valid.add(token);
    if (!this.queues.has(token)) this.queues.set(token, []);
  }

  revokeBot(token: string): void {
    this.valid.delete(token);
  }

  /** Queue an inbound message as Telegram would deliver it; returns its update_id. */
  pushMessage(
    token: string,
    m: { chat_id: number; text: string; thread_id?: number; from_id?: number; username?: string; update_id?: number },
  ): number {
    const update_id = m.update_id ?? this.nextUpdateId++;
    const message: Record<string, unknown> = {
      message_id: this.nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: m.chat_id, type: m.thread_id ? 'supergroup' : 'private' },
      from: { id: m.from_id ?? m.chat_id, is_bot: false, first_name: 'Ada', username: m.username ?? 'ada' },
      text: m.text,
    };
    if (m.thread_id) Object.assign(message, { message_thread_id: m.thread_id, is_topic_message: true });
    this.queues.get(token)!.push({ update_id, message });
    for (const wake of [...this.waiters]) wake();
    return update_id;
  }

  /** The next call of `method` fails this way. */
  failNext(method: string, fault: Fault): void {
    this.faults.push({ method, fault });
  }

  pending(token: string): number {
    return this.queues.get(token)?.length ?? 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    const reply = (status: number, payload: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (!match) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
    const [, token, method] = match as unknown as [string, string, string];
    if (!this.valid.has(token)) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const faultAt = this.faults.findIndex((f) => f.method === method);
    if (faultAt >= 0) {
      const { fault } = this.faults.splice(faultAt, 1)[0]!;
      if (fault.kind === 'drop') return void req.socket.destroy();
      if (fault.kind === '500') return reply(500, { ok: false, error_code: 500, description: 'Internal Server Error' });
      return reply(429, { ok: false, error_code: 429, description: `Too Many Requests: retry after ${fault.retryAfterS}`, parameters: { retry_after: fault.retryAfterS } });
    }
    if (method === 'getUpdates') return this.getUpdates(token, body, reply, res);
    if (method === 'sendMessage') {
      if (typeof body.text !== 'string' || body.text === '') return reply(400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
      const sent: FakeSentMessage = {
        token,
        chat_id: body.chat_id as string,
        text: body.text,
        message_id: this.nextMessageId++,
        ...(body.message_thread_id === undefined ? {} : { message_thread_id: body.message_thread_id as number }),
      };
      this.sent.push(sent);
      return reply(200, { ok: true, result: { message_id: sent.message_id, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id) }, text: body.text } });
    }
    return reply(404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
  }

  private async getUpdates(token: string, body: Record<string, unknown>, reply: (s: number, p: unknown) => void, res: ServerResponse): Promise<void> {
    this.getUpdatesCalls += 1;
    if (this.polling.has(token)) {
      this.conflicts += 1;
      return reply(409, { ok: false, error_code: 409, description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running' });
    }
    this.polling.add(token);
    try {
      const queue = this.queues.get(token)!;
      const offset = typeof body.offset === 'number' ? body.offset : undefined;
      // An offset confirms every update below it, as in the Bot API.
      if (offset !== undefined) while (queue.length > 0 && queue[0]!.update_id < offset) queue.shift();
      const holdMs = Math.min(Number(body.timeout ?? 0) * 1000, this.maxHoldMs);
      if (queue.length === 0 && holdMs > 0) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            this.waiters.delete(done);
            res.off('close', done);
            resolve();
          };
          const timer = setTimeout(done, holdMs);
          this.waiters.add(done);
          res.on('close', done);
        });
      }
      reply(200, { ok: true, result: queue.slice(0, 100) });
    } finally {
      this.polling.delete(token);
    }
  }

  async close(): Promise<void> {
    for (const wake of [...this.waiters]) wake();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
