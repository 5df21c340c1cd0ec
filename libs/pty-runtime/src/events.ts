// Typed events in the node-pty / VS Code style: `onX(listener)` returns a Disposable, so every
// subscription has an owner that can end it.

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    [Symbol.dispose]() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** A synchronous multi-listener event source. A throwing listener does not starve the others. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<Listener<T>>();
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => {});
    // Wrap so the same function subscribed twice gets two independent subscriptions.
    const entry: Listener<T> = (v) => listener(v);
    this.listeners.add(entry);
    return toDisposable(() => this.listeners.delete(entry));
  };

  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  [Symbol.dispose](): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

/** Owns disposables and ends them together, newest first. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  add<D extends Disposable>(d: D): D {
    if (this.disposed) d[Symbol.dispose]();
    else this.items.push(d);
    return d;
  }

  [Symbol.dispose](): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.items.reverse()) d[Symbol.dispose]();
    this.items = [];
  }
}
