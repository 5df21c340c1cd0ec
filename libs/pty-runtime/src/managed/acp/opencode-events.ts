import type { AcpObserver } from './acp-launch.js';

/**
 * opencode's authenticated, workdir-scoped backend event stream (`GET /event`, server-sent
 * events). Spec §8.4: its listener is registered before the HTTP response, so once the response
 * arrived no later input is missed (the lazily subscribed `/global/event` could miss the first
 * one). A user message persisted in our session while a prompt is in flight admits that prompt
 * well before the model's first output. The stream ending or failing on its own invalidates the
 * session (it cannot be replayed).
 */
export async function observeOpencodeEvents(
  url: string,
  credentials: { readonly username: string; readonly password: string },
  directory: string,
  sessionId: string,
  observer: AcpObserver,
): Promise<() => void> {
  const abort = new AbortController();
  const auth = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  const response = await fetch(`${url}/event?directory=${encodeURIComponent(directory)}`, { headers: { authorization: auth, accept: 'text/event-stream' }, signal: abort.signal });
  if (response.status !== 200 || !response.body) {
    abort.abort();
    throw new Error(`opencode /event answered ${response.status}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (!line.startsWith('data:')) continue;
          const event = parseEvent(line.slice(5));
          if (event === undefined) throw new Error('malformed backend event');
          if (isUserMessageOf(event, sessionId)) observer.onAdmission();
        }
      }
      if (!abort.signal.aborted) observer.onLost('the backend event stream ended');
    } catch (error) {
      if (!abort.signal.aborted) observer.onLost(error instanceof Error ? error.message : String(error));
    }
  })();
  return () => abort.abort();
}

function parseEvent(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `message.updated` of a user message in `sessionId`. */
export function isUserMessageOf(event: Record<string, unknown>, sessionId: string): boolean {
  if (event.type !== 'message.updated') return false;
  const props = event.properties as { sessionID?: unknown; info?: { role?: unknown; sessionID?: unknown } } | undefined;
  return props?.info?.role === 'user' && (props.info.sessionID ?? props.sessionID) === sessionId;
}
