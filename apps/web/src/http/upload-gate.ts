/**
 * At most `capacity` uploads hold their bodies in memory at once (each up to the body limit);
 * the others wait before reading theirs, their bytes held back by the client's TCP window. A
 * burst of uploads then costs `capacity` bodies, not one per request.
 */
export class UploadGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly capacity: number) {}

  /** Uploads running now, and waiting for a turn (observability and tests). */
  get counts(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.capacity) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the slot is handed over
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
