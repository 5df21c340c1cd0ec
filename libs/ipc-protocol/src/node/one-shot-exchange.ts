import type { SocketAddress } from './endpoint.js';
import type { LineExchangeOptions } from './line-exchange.js';
import { pipeBindings } from './pipe-bindings.js';
import { exchangeOverPipe } from './pipe-exchange.js';

/**
 * Daemon IPC v1's one exchange for a call that needs nothing after the answer line: over libuv's
 * pipe handle on a unix socket where that is verified (pipe-bindings.ts), so a process that
 * starts, calls and exits never loads node:net and its streams; over node:net otherwise. Both
 * have the same budgets, retries and failures (pipe-exchange.test.ts).
 */
export async function exchangeOneShot(endpoint: SocketAddress, line: string, options: LineExchangeOptions): Promise<string> {
  const pipe = 'path' in endpoint ? pipeBindings() : undefined;
  if (pipe && 'path' in endpoint) return exchangeOverPipe(pipe, endpoint.path, line, options);
  // Loaded only here: a static import would load node:net with this module.
  const { exchangeLine } = await import('./line-exchange.js');
  const answer = await exchangeLine(endpoint, line, options);
  answer.socket.destroy();
  return answer.line;
}
