import type { PtySession } from '../pty/pty-session.js';

/** Accumulates a session's output and waits for text to appear in it. */
export class OutputCollector implements Disposable {
  private chunks: Buffer[] = [];
  private waiters: Array<() => void> = [];
  private readonly sub: Disposable;

  constructor(session: PtySession) {
    this.sub = session.onData((d) => {
      this.chunks.push(Buffer.from(d));
      for (const w of this.waiters.splice(0)) w();
    });
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  async waitFor(needle: string | RegExp, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.text();
      if (typeof needle === 'string' ? text.includes(needle) : needle.test(text)) return text;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${String(needle)}; got ${JSON.stringify(text.slice(-400))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  [Symbol.dispose](): void {
    this.sub[Symbol.dispose]();
  }
}

export function waitForExit(session: PtySession, timeoutMs = 5000): Promise<{ exitCode: number | null; signal: number | null }> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('process did not exit')), timeoutMs);
    session.onExit((e) => {
      clearTimeout(t);
      resolve(e);
    });
  });
}
