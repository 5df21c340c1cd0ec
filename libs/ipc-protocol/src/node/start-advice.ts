import { describeEndpoint, type SocketAddress } from './endpoint.js';
import { connectFailureCode, DaemonTransportError } from './errors.js';

/**
 * Runs one exchange with `endpoint`; a connect failure comes back saying where the daemon was
 * looked for and how to start one. Shared by every transport of a call (call-op.ts).
 */
export async function withStartAdvice<T>(endpoint: SocketAddress, exchange: () => Promise<T>): Promise<T> {
  try {
    return await exchange();
  } catch (error) {
    if (!(error instanceof DaemonTransportError) || error.failure !== 'connect') throw error;
    const message = `cannot connect to the CCCC daemon at ${describeEndpoint(endpoint)} (${connectFailureCode(error)}); is it running? try: cccc daemon start`;
    throw new DaemonTransportError('connect', message, false, { cause: error.cause });
  }
}
