import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** A live SSE response read with eventsource-parser: events and comments as they arrive. */
export class SseReader {
  readonly events: EventSourceMessage[] = [];
  readonly comments: string[] = [];
  ended = false;
  private readonly controller = new AbortController();

  static async open(url: string, headers: Record<string, string> = {}): Promise<{ status: number; reader?: SseReader; json?: any }> {
    const r = new SseReader();
    const res = await fetch(url, { headers, signal: r.controller.signal });
    if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
      return { status: res.status, json: await res.json() };
    }
    const parser = createParser({ onEvent: (e) => r.events.push(e), onComment: (c) => r.comments.push(c.trim()) });
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      } catch {
        // aborted
      } finally {
        r.ended = true;
      }
    })();
    return { status: res.status, reader: r };
  }

  close(): void {
    this.controller.abort();
  }
}
