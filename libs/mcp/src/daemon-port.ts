import type { DaemonRequestV1, DaemonResponseV1, OpArgsInput, OpName, OpResult } from '@cccc/ipc-protocol';

/** The one thing the server needs from the daemon: a request/response exchange (DaemonClient has it). */
export interface DaemonPort {
  request(request: DaemonRequestV1): Promise<DaemonResponseV1>;
}

/**
 * A failed tool call, in the daemon's own error shape. Daemon errors pass through untouched
 * (§8.6 error fidelity); local refusals use the same `{code, message, details}`.
 */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Call an op and return its result, or throw ToolFailure carrying the daemon's error verbatim. */
export async function callOp<K extends OpName>(port: DaemonPort, op: K, args: OpArgsInput<K>): Promise<OpResult<K>> {
  let response: DaemonResponseV1;
  try {
    response = await port.request({ v: 1, op, args: args as Record<string, unknown> });
  } catch (error) {
    const e = error as { failure?: string; requestSent?: boolean; message?: string };
    throw new ToolFailure('daemon_unavailable', `${op}: ${e.message ?? String(error)}`, {
      op,
      ...(e.failure ? { failure: e.failure } : {}),
      ...(typeof e.requestSent === 'boolean' ? { request_sent: e.requestSent } : {}),
    });
  }
  if (!response.ok) {
    const err = response.error!;
    throw new ToolFailure(err.code, err.message, err.details ?? {});
  }
  return response.result as OpResult<K>;
}
