import { ledgerSizes, sameSizes } from './ledger-files.js';
import { check } from './runner.js';
import { exchange, parseResponse, pingWithin, type ExchangeOptions, type Response } from './wire.js';

// The check run after every hostile request: the daemon still answers ping within 1 s, and a
// refused request appended nothing to any group's ledger.

export interface Probe {
  readonly sock: string;
  readonly home: string;
}

export interface HostileOutcome {
  /** The response, when the daemon answered before closing. */
  readonly response?: Response;
  readonly closed: boolean;
  readonly ms: number;
}

/**
 * Send `payload`, then require: an error envelope (never internal_error) or a close when
 * `mayClose`; nothing appended; ping within 1 s.
 */
export async function hostile(
  probe: Probe,
  what: string,
  payload: string | Buffer,
  options: ExchangeOptions & { mayClose?: boolean; mayAccept?: boolean; internalErrors?: string[] } = {},
): Promise<HostileOutcome> {
  const before = ledgerSizes(probe.home);
  const reply = await exchange(probe.sock, payload, { timeoutMs: options.timeoutMs ?? 10_000, waitClose: options.waitClose });
  let response: Response | undefined;
  if (reply.line !== undefined) {
    try {
      response = parseResponse(reply.line);
    } catch {
      throw new Error(`${what}: the answer is not a response envelope: ${reply.line.slice(0, 200)}`);
    }
    if (response.ok) check(options.mayAccept, `${what}: accepted (${reply.line.slice(0, 200)})`);
    else if (response.error?.code === 'internal_error') {
      // Collected by the caller (to report them all), or the case fails here.
      check(options.internalErrors, `${what}: internal_error ${JSON.stringify(response.error)}`);
      options.internalErrors.push(what);
    }
  } else check(options.mayClose && reply.closed, `${what}: no answer (${reply.error ?? (reply.closed ? 'closed' : 'timeout')})`);
  if (!response?.ok) {
    const changed = sameSizes(before, ledgerSizes(probe.home));
    check(changed === undefined, `${what}: refused, yet the ledger changed (${changed})`);
  }
  await pingWithin(probe.sock, 1000).catch((error: Error) => {
    throw new Error(`${what}: afterwards ${error.message}`);
  });
  return { response, closed: reply.closed, ms: reply.ms };
}

export function expectCode(outcome: HostileOutcome, what: string, code: string, details?: Record<string, unknown>): void {
  const error = outcome.response?.error;
  check(error?.code === code, `${what}: expected ${code}, got ${JSON.stringify(outcome.response ?? { closed: outcome.closed }).slice(0, 300)}`);
  for (const [key, value] of Object.entries(details ?? {})) {
    check(JSON.stringify(error.details?.[key]) === JSON.stringify(value), `${what}: details.${key} is ${JSON.stringify(error.details?.[key])}, expected ${JSON.stringify(value)}`);
  }
}
