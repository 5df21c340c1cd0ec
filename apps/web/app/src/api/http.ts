/** A daemon or Web error, with the stable code of the `{ok:false, error}` envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Envelope<T> = { ok: true; result: T } | { ok: false; error: { code: string; message: string; details?: unknown } };

/** Listeners told when any call answers 401, so the app can show the sign-in screen. */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * One request to the Web's `/api/v1` (`url` already names the route, see client.ts): the
 * `{ok, result}` envelope is unwrapped, `{ok:false}` becomes an ApiError. The result is what the
 * route table promises for that route; the access token travels in the HttpOnly cookie, never in
 * script-visible storage.
 */
export async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: FormData | string): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (typeof body === 'string') headers['Content-Type'] = 'application/json';
  const res = await fetch(url, { method, headers, body, credentials: 'same-origin' });
  let envelope: Envelope<T>;
  try {
    envelope = (await res.json()) as Envelope<T>;
  } catch {
    throw new ApiError(res.status, 'bad_response', `HTTP ${res.status} without a JSON envelope`);
  }
  if (res.status === 401) for (const l of unauthorizedListeners) l();
  if (!envelope.ok) throw new ApiError(res.status, envelope.error.code, envelope.error.message, envelope.error.details);
  return envelope.result;
}
