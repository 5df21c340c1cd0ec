import type { OpArgsInput, OpName, OpResult } from '../ops/catalog.js';
import { checkResponse } from '../response-check.js';
import { callExchangeOptions, type CallOptions } from './call-options.js';
import { discoverEndpoint } from './discover.js';
import { DaemonCallError, DaemonTransportError } from './errors.js';
import { exchangeOneShot } from './one-shot-exchange.js';
import { withStartAdvice } from './start-advice.js';

export type { CallOptions } from './call-options.js';

// One request, one answer, without zod or the op catalog at run time (the catalog's types are
// erased): what `DaemonClient.call` does, for a process that starts, calls and exits, such as a
// `cccc` command. The exchange and its budgets are DaemonClient's; only the envelope check is
// the zod-free twin (response-check.ts). The exchange is one-shot-exchange.ts's, which spares
// such a process node:net where it can.

/** Call a catalog op on `home`'s daemon; its result, or DaemonCallError / DaemonTransportError. */
export async function callOp<K extends OpName>(home: string, op: K, args: OpArgsInput<K>, options: CallOptions = {}): Promise<OpResult<K>> {
  const endpoint = options.endpoint ?? discoverEndpoint(home);
  const request = JSON.stringify({ v: 1, op, args }) + '\n';
  const line = await withStartAdvice(endpoint, () => exchangeOneShot(endpoint, request, callExchangeOptions(op, options)));
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
