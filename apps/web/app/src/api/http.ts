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
 * Call `/api/v1`: the `{ok, result}` envelope is unwrapped, `{ok:false}` becomes an ApiError.
 * The access token travels in the HttpOnly cookie, never in script-visible storage.
 */
export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, init?: RequestInit): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`/api/v1${path}`, { method, headers, body: payload, credentials: 'same-origin', ...init });
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

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body ?? {});
export const del = <T>(path: string) => api<T>('DELETE', path);

/** Path segment encoding for ids that come from the server. */
export const seg = (s: string) => encodeURIComponent(s);
