import {
  DaemonCallError,
  DaemonTransportError,
  MAX_RESPONSE_LINE_BYTES,
  connectFailureCode,
  describeEndpoint,
  discoverEndpoint,
  exchangeLine,
} from '@cccc/ipc-protocol/node';
import { checkResponse } from './envelope-check.js';

// `DaemonClient.call` (ipc-protocol node/client.ts) for the fast path: the same discovery, the
// same shared one-line exchange with the same budgets and retries, the same errors and wording;
// only the envelope check is the zod-free twin (envelope-check.ts).

/** DaemonClient's defaults, which the full CLI's `clientFor(home)` keeps. */
const TIMEOUT_MS = 30_000;
const CONNECT_ATTEMPTS = 3;
const CONNECT_RETRY_DELAY_MS = 50;

/** Call `op` on the daemon of `home`; its result, or DaemonCallError / DaemonTransportError. */
export async function fastCall(home: string, op: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const endpoint = discoverEndpoint(home);
  let exchanged;
  try {
    exchanged = await exchangeLine(endpoint, JSON.stringify({ v: 1, op, args }) + '\n', {
      op,
      timeoutMs: TIMEOUT_MS,
      attempts: CONNECT_ATTEMPTS,
      retryDelayMs: CONNECT_RETRY_DELAY_MS,
      maxLineBytes: MAX_RESPONSE_LINE_BYTES,
    });
  } catch (error) {
    if (!(error instanceof DaemonTransportError) || error.failure !== 'connect') throw error;
    const message = `cannot connect to the CCCC daemon at ${describeEndpoint(endpoint)} (${connectFailureCode(error)}); is it running? try: cccc daemon start`;
    throw new DaemonTransportError('connect', message, false, { cause: error.cause });
  }
  exchanged.socket.destroy();
  let value: unknown;
  try {
    value = JSON.parse(exchanged.line);
  } catch (cause) {
    throw new DaemonTransportError('protocol', `${op}: response is not valid JSON`, true, { cause });
  }
  const response = checkResponse(value);
  if (!response) throw new DaemonTransportError('protocol', `${op}: malformed response envelope`, true);
  if (!response.ok) throw new DaemonCallError(op, response.error!);
  return response.result;
}
