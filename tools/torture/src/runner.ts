// One line per case, `ok <name> (<ms> ms)` or `FAIL <name>: <reason>`, each case bounded by its
// own timeout; the caller prints the closing `N passed, N failed` from the counts.

export class CaseTimeout extends Error {
  override name = 'CaseTimeout';
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

export interface CaseResult {
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly reason?: string;
}

/** What a case may return: nothing, or figures worth a line under its result. */
export type CaseNote = string | void;

export class Runner {
  readonly results: CaseResult[] = [];

  constructor(private readonly print: (line: string) => void = (line) => process.stdout.write(line + '\n')) {}

  get passed(): number {
    return this.results.filter((r) => r.ok).length;
  }

  get failed(): number {
    return this.results.length - this.passed;
  }

  /**
   * Run one case within `timeoutMs`; never throws. On timeout the signal aborts (loops that
   * honour it stop) and the family's teardown kills whatever the case left running.
   */
  async case(name: string, timeoutMs: number, run: (signal: AbortSignal) => Promise<CaseNote>): Promise<boolean> {
    const controller = new AbortController();
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new CaseTimeout(timeoutMs));
      }, timeoutMs);
    });
    try {
      const note = await Promise.race([run(controller.signal), timeout]);
      const ms = Math.round(performance.now() - started);
      this.results.push({ name, ok: true, ms });
      this.print(`ok ${name} (${ms} ms)`);
      if (note) for (const line of note.split('\n')) this.print(`   # ${line}`);
      return true;
    } catch (error) {
      controller.abort();
      this.recordFailure(name, reasonOf(error), Math.round(performance.now() - started));
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A failure outside a case (a family that could not set up or tear down). */
  fail(name: string, error: unknown): void {
    this.recordFailure(name, reasonOf(error), 0);
  }

  private recordFailure(name: string, reason: string, ms: number): void {
    this.results.push({ name, ok: false, ms, reason });
    this.print(`FAIL ${name}: ${reason}`);
  }
}

export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // One line, bounded: a reason quoting a huge response must not flood the report.
  const flat = text.replace(/\s*\n\s*/g, ' | ');
  return flat.length > 600 ? `${flat.slice(0, 600)}… (${flat.length} chars)` : flat;
}

/** A failed expectation inside a case. */
export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new Error(typeof message === 'function' ? message() : message);
}
