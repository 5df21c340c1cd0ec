import { callExchangeOptions, type CallOptions } from './call-options.js';
import type { DaemonEndpoint } from './endpoint.js';
import { exchangeLine, type ExchangedLine } from './line-exchange.js';
import { withStartAdvice } from './start-advice.js';

/**
 * Send one request line to the daemon over node:net and read its first answer line, the socket
 * left open for an upgraded stream. A connect failure says where the daemon was looked for and
 * how to start one. Shared by DaemonClient and `callOp` (when it cannot use the pipe handle).
 */
export function exchangeWithDaemon(endpoint: DaemonEndpoint, op: string, line: string, options: CallOptions = {}): Promise<ExchangedLine> {
  return withStartAdvice(endpoint, () => exchangeLine(endpoint, line, callExchangeOptions(op, options)));
}
