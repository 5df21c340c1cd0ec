import type { DaemonErrorV1 } from '../envelope.js';

/** The daemon answered `ok: false`. */
export class DaemonCallError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(readonly op: string, error: DaemonErrorV1) {
    super(`${op}: ${error.code}: ${error.message}`);
    this.name = 'DaemonCallError';
    this.code = error.code;
    this.details = error.details ?? {};
  }
}

export type TransportFailure = 'connect' | 'timeout' | 'closed' | 'too_large' | 'protocol';

/**
 * The call did not produce a usable response. `requestSent` tells whether any request bytes
 * may have reached the daemon: once they may have, the call must not be replayed (§4.3).
 */
export class DaemonTransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    message: string,
    readonly requestSent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DaemonTransportError';
  }
}

/** The errno-style code of a failed connect (`ETIMEDOUT` for our own timeout). */
export function connectFailureCode(error: DaemonTransportError): string {
  return (error.cause as NodeJS.ErrnoException | undefined)?.code ?? 'unknown';
}
