import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import type { EventSource } from '../streams/stream-session.js';

/**
 * Group and actor changes across all groups, for `global_events_stream`. In memory and bounded:
 * the stream is an invalidation feed (clients re-read state), not a history.
 */
export class GlobalFeed {
  private readonly events: CCCSEventV1[] = [];
  /** Absolute position of `events[0]`. */
  private base = 0;

  constructor(private readonly capacity = 4096) {}

  push(event: CCCSEventV1): void {
    this.events.push(event);
    if (this.events.length > this.capacity) {
      const drop = this.events.length - this.capacity;
      this.events.splice(0, drop);
      this.base += drop;
    }
  }

  get end(): number {
    return this.base + this.events.length;
  }

  /** A cursor starting at the current end (only changes from now on). */
  follow(): EventSource {
    let position = this.end;
    let closed = false;
    return {
      poll: () => {
        if (closed) return [];
        if (position < this.base) {
          throw Object.assign(new Error('global feed overflowed this subscriber; reconnect and re-read state'), {
            code: 'slow_subscriber',
          });
        }
        const out = this.events.slice(position - this.base);
        position = this.end;
        return out;
      },
      close: () => {
        closed = true;
      },
    };
  }
}
