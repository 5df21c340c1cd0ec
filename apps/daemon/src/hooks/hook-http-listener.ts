import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Dispatched } from '@cccc/ipc-protocol';
import type { Logger } from '../log.js';
import { answerOf, hookEventRequest, HOOK_HTTP_MAX_BODY, HOOK_HTTP_PATH, refuseHead, type HookHttpAnswer } from './hook-http-request.js';

// IO shell of the loopback HTTP hook listener (issue 35): Claude Code POSTs each hook event here
// instead of starting `cccc hook claude-state` (a whole Node start per tool call). Each POST goes
// through the daemon's own router as the same `runtime_hook_event` request the command hook sends,
// so auth (the launch token), the fences and the commit are one code path. Bound to 127.0.0.1 on
// a port the kernel picks; the token travels in a header and is never logged.

/** How the daemon's router serves one in-process request (the automation scheduler uses it too). */
export type HookDispatch = (request: unknown) => Promise<Pick<Dispatched, 'response'>>;

/** Slow or idle clients are cut off well before they could hold sockets open for long. */
const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_MS = 5_000;
const MAX_CONNECTIONS = 256;
const OK_BODY = '{}';

export class HookHttpListener {
  private server: Server | undefined;
  private port: number | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly dispatch: HookDispatch,
    private readonly logger: Logger,
  ) {}

  /** Bind 127.0.0.1:0; resolves with the port. */
  async listen(): Promise<number> {
    const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS }, (req, res) => {
      void this.serve(req, res).catch((error: unknown) => {
        // Never reached by design (serve answers every path); a last guard so no request can crash the daemon.
        this.logger.log('error', 'http hook request failed', { error: String((error as Error)?.message ?? error) });
        if (!res.headersSent) this.reply(res, { status: 500, reason: 'internal_error' });
      });
    });
    server.maxConnections = MAX_CONNECTIONS;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.logger.log('error', 'http hook listener error', { error: error.message }));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  /** Where the injected http hooks POST, once listening. */
  get url(): string | undefined {
    return this.port === undefined ? undefined : `http://127.0.0.1:${this.port}${HOOK_HTTP_PATH}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.port = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAtMs = Date.now();
    const head = { method: req.method, url: req.url, headers: req.headers };
    const refused = refuseHead(head);
    if (refused) return this.refuse(req, res, refused);
    const body = await readCapped(req, HOOK_HTTP_MAX_BODY);
    if (body === null) return this.refuse(req, res, { status: 413, reason: 'body_too_large' });
    const built = hookEventRequest(head, body, receivedAtMs);
    if ('answer' in built) return this.refuse(req, res, built.answer);
    const { response } = await this.dispatch(built.request);
    const answer = answerOf(response);
    if (answer.status !== 200) this.logger.log('warn', 'http hook event refused', { status: answer.status, reason: answer.reason, group_id: built.request.args.group_id, actor_id: built.request.args.actor_id });
    this.reply(res, answer);
  }

  private refuse(req: IncomingMessage, res: ServerResponse, answer: HookHttpAnswer): void {
    this.logger.log('warn', 'http hook request refused', { status: answer.status, reason: answer.reason });
    // A refused body is not read: close the connection rather than drain an unknown amount.
    res.setHeader('connection', 'close');
    this.reply(res, answer);
    req.resume();
  }

  private reply(res: ServerResponse, answer: HookHttpAnswer): void {
    const body = answer.status === 200 ? OK_BODY : JSON.stringify({ error: answer.reason });
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }
}

/** The request body as text, or null once it passes `max` bytes (the rest is not read). */
function readCapped(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: string | null) => {
      if (done) return;
      done = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        req.pause();
        return finish(null);
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => finish(null));
    req.on('aborted', () => finish(null));
  });
}
