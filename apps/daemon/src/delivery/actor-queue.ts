import type { DeliverableEvent } from './gates.js';

/** One piece of push work for one actor: a chat.message or a system.notify. */
export interface WorkItem {
  readonly event: DeliverableEvent;
  /** message_deliver claimed it before returning; the worker must not claim again. */
  readonly preclaimed?: boolean;
}

/**
 * A per-actor FIFO with a single drain loop: work is pushed in commit order, and `drain` (the
 * delivery worker's batch step) runs alone until it reports it is held or the queue is empty.
 * Held work stays queued until the next `kick` (resume, start, enable).
 */
export class ActorQueue {
  private readonly items: WorkItem[] = [];
  private draining: Promise<void> | undefined;
  private again = false;

  constructor(private readonly step: (queue: ActorQueue) => Promise<'continue' | 'held'>) {}

  get size(): number {
    return this.items.length;
  }

  push(item: WorkItem): void {
    const existing = this.items.findIndex((i) => i.event.id === item.event.id);
    if (existing < 0) this.items.push(item);
    else if (item.preclaimed) this.items[existing] = item;
    this.kick();
  }

  take(max: number): WorkItem[] {
    return this.items.splice(0, max);
  }

  /** Remove and return the items matching `pred` (e.g. preclaimed work that cannot wait). */
  extract(pred: (item: WorkItem) => boolean): WorkItem[] {
    const out: WorkItem[] = [];
    for (let i = this.items.length - 1; i >= 0; i--) if (pred(this.items[i]!)) out.unshift(...this.items.splice(i, 1));
    return out;
  }

  kick(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.run().finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        if (this.items.length > 0) this.kick();
      }
    });
  }

  /** Resolves when the current drain (if any) is done. */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private async run(): Promise<void> {
    while (this.items.length > 0) {
      this.again = false;
      if ((await this.step(this)) === 'held') return;
    }
  }
}
