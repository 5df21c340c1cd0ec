import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicMessage, type RenderContext, streamAnthropic } from './anthropic.js';
import { streamChatCompletions } from './chat-completions.js';
import { countOccurrences, type ModelApi, type RecordedRequest, redactHeaders } from './recorded.js';
import { streamResponses } from './responses.js';
import { type ModelStep, ModelScript, SIDE_REQUEST_TEXT } from './script.js';

export interface FakeModel extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: Claude Code's ANTHROPIC_BASE_URL; add `/v1` for Codex and opencode. */
  readonly url: string;
  readonly port: number;
  /** Every request, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Replaces the script; the next main request takes its first step. */
  setScript(steps: readonly ModelStep[]): void;
  /** See `countOccurrences` in recorded.ts. */
  countOccurrences(text: string, options?: { includeToolResults?: boolean }): number;
  /** Resolves with the first request (past or future) that matches, or rejects after `timeoutMs`. */
  waitForRequest(match: (request: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  /** Ends open (hanging) responses and stops listening. */
  close(): Promise<void>;
}

const API_PATHS: ReadonlyArray<[RegExp, ModelApi]> = [
  [/\/v1\/messages$/, 'anthropic'],
  [/\/v1\/responses$/, 'responses'],
  [/\/v1\/chat\/completions$/, 'chat'],
];

const MAX_BODY_BYTES = 32 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A main request carries the agent's tools; side requests (titles, probes) carry none. */
function isMainRequest(body: unknown): boolean {
  if (!body || typeof body !== 'object' || !('tools' in body)) return false;
  return Array.isArray(body.tools) && body.tools.length > 0;
}

const modelOf = (body: unknown): string =>
  body && typeof body === 'object' && 'model' in body && typeof body.model === 'string' ? body.model : 'fake-model';
const wantsStream = (body: unknown): boolean => !!body && typeof body === 'object' && 'stream' in body && body.stream === true;

/** A non-streaming answer (side requests made with `stream: false`), in the API's own shape. */
function plainAnswer(api: ModelApi, text: string, ctx: RenderContext): unknown {
  if (api === 'anthropic') return anthropicMessage(text, ctx);
  const created = Math.floor(Date.now() / 1000);
  if (api === 'responses') {
    const output = [{ type: 'message', id: `msg_${ctx.id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }];
    return { id: ctx.id, object: 'response', created_at: created, model: ctx.model, status: 'completed', output, usage: { input_tokens: 10, output_tokens: 1, total_tokens: 11 } };
  }
  return {
    id: ctx.id,
    object: 'chat.completion',
    created,
    model: ctx.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
  };
}

export async function startFakeModel(options: { steps?: readonly ModelStep[]; host?: string } = {}): Promise<FakeModel> {
  let script = new ModelScript(options.steps ?? []);
  const requests: RecordedRequest[] = [];
  const waiters = new Set<(request: RecordedRequest) => void>();
  const closing = new AbortController();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAtMs = performance.now();
    const url = new URL(req.url ?? '/', 'http://fake-model');
    const body = await readBody(req);
    const api = req.method === 'POST' ? (API_PATHS.find(([pattern]) => pattern.test(url.pathname))?.[1] ?? 'other') : 'other';
    const main = api !== 'other' && isMainRequest(body);
    const scripted = main ? script.take() : undefined;
    const recorded: RecordedRequest = {
      seq: requests.length + 1,
      api,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      headers: redactHeaders(req.headers),
      body,
      main,
      receivedAtMs,
    };
    // A tool input read from the request is resolved once, and the step recorded as answered.
    const step: ModelStep | undefined =
      scripted?.kind === 'tool' && typeof scripted.input === 'function' ? { ...scripted, input: scripted.input(recorded) } : scripted;
    if (step) recorded.step = step;
    requests.push(recorded);
    for (const waiter of [...waiters]) waiter(recorded);

    if (api === 'other') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(url.pathname.endsWith('/count_tokens') ? '{"input_tokens":10}' : '{}');
      return;
    }
    const turn = new AbortController();
    const abort = () => turn.abort();
    closing.signal.addEventListener('abort', abort, { once: true });
    res.on('close', abort);
    const ctx: RenderContext = { model: modelOf(body), id: `fake${recorded.seq}`, signal: turn.signal };
    const answer = step ?? { kind: 'text' as const, text: SIDE_REQUEST_TEXT };
    try {
      if (!wantsStream(body)) {
        const text = 'text' in answer && answer.text ? answer.text : SIDE_REQUEST_TEXT;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(plainAnswer(api, text, ctx)));
      } else if (api === 'anthropic') await streamAnthropic(res, answer, ctx);
      else if (api === 'responses') await streamResponses(res, answer, ctx);
      else await streamChatCompletions(res, answer, ctx);
    } finally {
      closing.signal.removeEventListener('abort', abort);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      closing.abort();
      server.close(() => resolve());
      server.closeAllConnections();
    }));

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setScript: (steps) => {
      script = new ModelScript(steps);
    },
    countOccurrences: (text, options) => countOccurrences(requests, text, options),
    waitForRequest: (match, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const seen = requests.find(match);
        if (seen) return resolve(seen);
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`fake-model: no matching request within ${timeoutMs} ms (${requests.length} seen)`));
        }, timeoutMs);
        const check = (request: RecordedRequest) => {
          if (!match(request)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(request);
        };
        waiters.add(check);
      }),
    close,
    [Symbol.asyncDispose]: close,
  };
}
