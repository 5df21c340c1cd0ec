import { createConnection } from 'node:net';

// Raw NDJSON over the daemon's unix socket: the torture cases need what a client library hides
// (partial lines, garbage bytes, whether and when the daemon closed the connection).

export interface DaemonError {
  readonly code: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

export interface Response {
  readonly v: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: DaemonError | null;
}

export interface Reply {
  /** The first response line, when one came. */
  readonly line?: string;
  /** The daemon closed (or reset) the connection before `timeoutMs` ran out. */
  readonly closed: boolean;
  /** Milliseconds from connect to the first line (or to the close / timeout). */
  readonly ms: number;
  /** A socket error (ECONNREFUSED when no daemon listens, ...). */
  readonly error?: string;
}

export interface ExchangeOptions {
  readonly timeoutMs?: number;
  /** After the first line, wait (within `timeoutMs`) for the daemon to close the connection. */
  readonly waitClose?: boolean;
  /**
   * Connect again (within `timeoutMs`) when the socket's accept queue is full (EAGAIN): nothing
   * was sent yet, so a client may retry (IPC §4.3); a flood leaves that queue full for a while.
   */
  readonly retryFullQueue?: boolean;
}

/** Every response line read by any exchange, for the secret-leak sweep. */
const responseTaps = new Set<(line: string) => void>();

export function tapResponses(listener: (line: string) => void): Disposable {
  responseTaps.add(listener);
  return { [Symbol.dispose]: () => void responseTaps.delete(listener) };
}

/** Write `payload` on a fresh connection and read the first response line. Never rejects. */
export async function exchange(sock: string, payload: string | Buffer, options: ExchangeOptions = {}): Promise<Reply> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const started = performance.now();
  for (;;) {
    const reply = await exchangeOnce(sock, payload, { ...options, timeoutMs: timeoutMs - (performance.now() - started) });
    const left = timeoutMs - (performance.now() - started);
    if (reply.error !== 'EAGAIN' || !options.retryFullQueue || left < 10) return { ...reply, ms: performance.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function exchangeOnce(sock: string, payload: string | Buffer, options: ExchangeOptions & { timeoutMs: number }): Promise<Reply> {
  const timeoutMs = options.timeoutMs;
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = createConnection(sock);
    const chunks: Buffer[] = [];
    let line: string | undefined;
    let settled = false;
    const finish = (reply: Omit<Reply, 'ms' | 'line'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...reply, line, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish({ closed: false }), timeoutMs);
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk: Buffer) => {
      if (line !== undefined) return;
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) return void chunks.push(chunk);
      chunks.push(chunk.subarray(0, nl));
      line = Buffer.concat(chunks).toString('utf8');
      for (const tap of responseTaps) tap(line);
      if (!options.waitClose) finish({ closed: false });
    });
    socket.on('close', () => finish({ closed: true }));
    socket.on('error', (error: NodeJS.ErrnoException) => finish({ closed: true, error: error.code ?? error.message }));
  });
}

export function parseResponse(line: string): Response {
  const parsed = JSON.parse(line) as Response;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.ok !== 'boolean') throw new Error(`not a response envelope: ${line.slice(0, 200)}`);
  return parsed;
}

export function requestLine(op: unknown, args: unknown): string {
  return JSON.stringify({ v: 1, op, args }) + '\n';
}

/** One request, its parsed response; rejects when no response line came. */
export async function call(sock: string, op: string, args: unknown, timeoutMs = 10_000): Promise<Response> {
  const reply = await exchange(sock, requestLine(op, args), { timeoutMs });
  if (reply.line === undefined) throw new Error(`${op}: no response (${reply.error ?? (reply.closed ? 'closed' : `timeout ${timeoutMs} ms`)})`);
  return parseResponse(reply.line);
}

/** `call`, or undefined when the daemon did not answer (it is down, or restarting). */
export async function tryCall(sock: string, op: string, args: unknown, timeoutMs = 10_000): Promise<Response | undefined> {
  const reply = await exchange(sock, requestLine(op, args), { timeoutMs });
  if (reply.line === undefined) return undefined;
  try {
    return parseResponse(reply.line);
  } catch {
    return undefined;
  }
}

/** The result of an op that must succeed. */
export async function ok<T = Record<string, unknown>>(sock: string, op: string, args: unknown, timeoutMs = 30_000): Promise<T> {
  const response = await call(sock, op, args, timeoutMs);
  if (!response.ok) throw new Error(`${op} failed: ${JSON.stringify(response.error)}`);
  return response.result as T;
}

/** The error of an op that must fail. */
export async function refused(sock: string, op: string, args: unknown, timeoutMs = 10_000): Promise<DaemonError> {
  const response = await call(sock, op, args, timeoutMs);
  if (response.ok || !response.error) throw new Error(`${op} should have failed: ${JSON.stringify(response).slice(0, 300)}`);
  return response.error;
}

/** The daemon answers ping within `withinMs` (after every hostile request). */
export async function pingWithin(sock: string, withinMs = 1000): Promise<number> {
  const reply = await exchange(sock, requestLine('ping', {}), { timeoutMs: withinMs, retryFullQueue: true });
  if (reply.line === undefined) throw new Error(`ping not answered within ${withinMs} ms (${reply.error ?? (reply.closed ? 'closed' : 'timeout')})`);
  const response = parseResponse(reply.line);
  if (!response.ok) throw new Error(`ping failed: ${JSON.stringify(response.error)}`);
  return reply.ms;
}
