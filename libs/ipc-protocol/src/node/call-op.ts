import type { OpArgsInput, OpName, OpResult } from '../ops/catalog.js';
import { MAX_RESPONSE_LINE_BYTES } from '../limits.js';
import { checkResponse } from '../response-check.js';
import { connectFailureCode } from './connect.js';
import { discoverEndpoint } from './discover.js';
import { describeEndpoint, type DaemonEndpoint } from './endpoint.js';
import { DaemonCallError, DaemonTransportError } from './errors.js';
import { exchangeLine, type ExchangedLine } from './line-exchange.js';

// One request, one answer, without zod or the op catalog at run time (the catalog's types are
// erased): what `DaemonClient.call` does, for a process that starts, calls and exits, such as a
// `cccc` command. The exchange and its budgets are DaemonClient's; only the envelope check is
// the zod-free twin (response-check.ts).

export interface CallOptions {
  /** The daemon to call; default: the one `home`'s daemon.json or socket names. */
  readonly endpoint?: DaemonEndpoint;
  /** The whole call's budget (default 30 s). */
  readonly timeoutMs?: number;
  /** Connect attempts (default 3); only connect failures are retried. */
  readonly connectAttempts?: number;
  /** The wait before retry n is n × this (default 50 ms). */
  readonly connectRetryDelayMs?: number;
}

/**
 * Send one request line to the daemon and read its first answer line. A connect failure says
 * where the daemon was looked for and how to start one. Shared by DaemonClient and `callOp`.
 */
export async function exchangeWithDaemon(endpoint: DaemonEndpoint, op: string, line: string, options: CallOptions = {}): Promise<ExchangedLine> {
  try {
    return await exchangeLine(endpoint, line, {
      op,
      timeoutMs: options.timeoutMs ?? 30_000,
      attempts: options.connectAttempts ?? 3,
      retryDelayMs: options.connectRetryDelayMs ?? 50,
      maxLineBytes: MAX_RESPONSE_LINE_BYTES,
    });
  } catch (error) {
    if (!(error instanceof DaemonTransportError) || error.failure !== 'connect') throw error;
    const message = `cannot connect to the CCCC daemon at ${describeEndpoint(endpoint)} (${connectFailureCode(error)}); is it running? try: cccc daemon start`;
    throw new DaemonTransportError('connect', message, false, { cause: error.cause });
  }
}

/** Call a catalog op on `home`'s daemon; its result, or DaemonCallError / DaemonTransportError. */
export async function callOp<K extends OpName>(home: string, op: K, args: OpArgsInput<K>, options: CallOptions = {}): Promise<OpResult<K>> {
  const endpoint = options.endpoint ?? discoverEndpoint(home);
  const { socket, line } = await exchangeWithDaemon(endpoint, op, JSON.stringify({ v: 1, op, args }) + '\n', options);
  socket.destroy();
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (cause) {
    throw new DaemonTransportError('protocol', `${op}: response is not valid JSON`, true, { cause });
  }
  const response = checkResponse(value);
  if (!response) throw new DaemonTransportError('protocol', `${op}: malformed response envelope`, true);
  if (!response.ok) throw new DaemonCallError(op, response.error!);
  return response.result as OpResult<K>;
}
