import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Temp CCCC homes for tests, removed by `cleanup()` (call it from afterEach/afterAll). */
export class TempHomes {
  private readonly dirs: string[] = [];

  make(prefix = 'ledger-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** A private copy of the read-only reference home (never write into /work/shared). */
  referenceCopy(): string {
    const dir = this.make('ledger-ref-');
    cpSync('/work/shared/fixtures/reference-home', dir, { recursive: true });
    return dir;
  }

  cleanup(): void {
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

export const REF_GROUP = 'g_30e7eb3af8cf';
