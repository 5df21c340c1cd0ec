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
  // Copy-on-write: `fire` runs on every PTY read, so it iterates this array as it was when the
  // fire started (the same snapshot semantics as copying per fire) without allocating.
  private listeners: ReadonlyArray<Listener<T>> = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => {});
    // Wrap so the same function subscribed twice gets two independent subscriptions.
    const entry: Listener<T> = (v) => listener(v);
    this.listeners = [...this.listeners, entry];
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== entry);
    });
  };

  fire(value: T): void {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i]!(value);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  [Symbol.dispose](): void {
    this.disposed = true;
    this.listeners = [];
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
