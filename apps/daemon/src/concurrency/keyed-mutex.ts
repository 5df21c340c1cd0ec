/**
 * Serializes async work per key (one group's writes), while different keys run concurrently.
 * In-process only: the daemon is the single writer, and cross-process files use real flocks.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T> | T): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      // Drop the entry when nobody queued behind us, so idle keys cost nothing.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  get activeKeys(): number {
    return this.tails.size;
  }
}
