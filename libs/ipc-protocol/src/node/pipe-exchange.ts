import { connectWithRetries } from './connect-retries.js';
import { describeEndpoint } from './endpoint.js';
import { DaemonTransportError } from './errors.js';
import { graceTimeout } from './grace-timeout.js';
import type { LineExchangeOptions } from './line-exchange.js';
import { monotonicMs } from './monotonic.js';
import type { PipeBindings, PipeHandle } from './pipe-bindings.js';

// Daemon IPC v1's one exchange (§4.3) over libuv's pipe handle rather than node:net
// (pipe-bindings.ts says why and when): connect, send one request line, read the first answer
// line, close. The same budgets, retries and failures as exchangeLine (line-exchange.ts) with
// node:net; pipe-exchange.test.ts holds both to one contract. Nothing after the line is kept:
// this is for calls, not for an upgraded stream.

const ignore = (): void => {};

/** An errno-style error as node:net makes them (`connect ENOENT /path`, code `ENOENT`). */
function uvError(pipe: PipeBindings, status: number, syscall: string, address?: string): NodeJS.ErrnoException {
  const code = pipe.errorName(status);
  return Object.assign(new Error(`${syscall} ${code}${address === undefined ? '' : ` ${address}`}`), { code, errno: status, syscall, ...(address === undefined ? {} : { address }) });
}

/** One connect attempt within `timeoutMs`; a failure is `connect`, nothing sent. */
function connectPipe(pipe: PipeBindings, path: string, timeoutMs: number): Promise<PipeHandle> {
  return new Promise((resolve, reject) => {
    const handle = pipe.newHandle();
    const req = pipe.newConnectReq();
    let settled = false;
    const finish = (cause?: NodeJS.ErrnoException, detail = cause?.code): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.oncomplete = ignore;
      if (!cause) return resolve(handle);
      handle.close();
      reject(new DaemonTransportError('connect', `cannot connect to the daemon (${detail}) at ${describeEndpoint({ path })}`, false, { cause }));
    };
    const timer = graceTimeout(timeoutMs, () =>
      finish(Object.assign(new Error(`connect timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' }), `timed out after ${timeoutMs} ms`),
    );
    req.oncomplete = (status) => finish(status < 0 ? uvError(pipe, status, 'connect', path) : undefined);
    const status = handle.connect(req, path);
    if (status < 0) finish(uvError(pipe, status, 'connect', path));
  });
}

/** Send `line` on a connected handle and read the first answer line; the handle is closed after. */
function requestLine(pipe: PipeBindings, handle: PipeHandle, line: string, options: LineExchangeOptions, timeoutMs: number): Promise<string> {
  const { op, maxLineBytes } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      handle.onread = ignore; // node checks it is a function: null would abort the process
      handle.readStop();
      handle.close();
      outcome();
    };
    const fail = (failure: 'timeout' | 'closed' | 'too_large', message: string, cause?: Error): void =>
      finish(() => reject(new DaemonTransportError(failure, message, true, cause ? { cause } : undefined)));
    const tooLarge = (): void => fail('too_large', `${op}: response line exceeds ${maxLineBytes} bytes`);
    const broken = (status: number, syscall: string): void => {
      const cause = uvError(pipe, status, syscall);
      if (cause.code === 'EOF') fail('closed', `${op}: the daemon closed the connection without an answer`);
      else fail('closed', `${op}: connection failed: ${cause.message}`, cause);
    };
    const timer = graceTimeout(timeoutMs, () => fail('timeout', `${op}: no answer within ${options.timeoutMs} ms`));
    handle.onread = (buffer) => {
      const { nread, offset } = pipe.lastRead();
      if (nread < 0) return broken(nread, 'read');
      if (nread === 0 || buffer === undefined) return;
      const chunk = Buffer.from(buffer, offset, nread);
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) {
        size += chunk.length;
        if (size > maxLineBytes) return tooLarge();
        chunks.push(chunk);
        return;
      }
      if (size + nl > maxLineBytes) return tooLarge();
      chunks.push(chunk.subarray(0, nl));
      finish(() => resolve(Buffer.concat(chunks).toString('utf8')));
    };
    const reading = handle.readStart();
    if (reading < 0) return broken(reading, 'read');
    const req = pipe.newWriteReq(handle);
    // Kept by the closure until it completes: the handle holds no reference to it.
    req.oncomplete = (status) => {
      if (status < 0) broken(status, 'write');
    };
    const written = handle.writeUtf8String(req, line);
    if (written < 0) broken(written, 'write');
  });
}

/**
 * Daemon IPC v1's one exchange over the pipe handle at `path`: the answer line. Failures are
 * DaemonTransportError, as exchangeLine's; `requestSent` says whether the request may have
 * reached the daemon (then it must not be replayed).
 */
export async function exchangeOverPipe(pipe: PipeBindings, path: string, line: string, options: LineExchangeOptions): Promise<string> {
  const start = monotonicMs();
  const left = (): number => Math.max(0, options.timeoutMs - (monotonicMs() - start));
  const handle = await connectWithRetries((timeoutMs) => connectPipe(pipe, path, timeoutMs), options, left);
  return requestLine(pipe, handle, line, options, left());
}
