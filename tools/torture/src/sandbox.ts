import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Sandboxes not yet disposed, removed by `removeEverySandbox` when a run is cut short. */
const live = new Set<Sandbox>();

export function removeEverySandbox(): void {
  for (const box of [...live]) box[Symbol.dispose]();
}

/**
 * A temp directory per case family: `home` is the daemon's CCCC_HOME, `outside` a directory
 * beside it that hostile requests aim at (nothing may appear there), and the daemon's own
 * stdout/stderr go to `daemon.out` beside both.
 */
export class Sandbox implements Disposable {
  readonly home: string;
  readonly outside: string;
  readonly daemonOutput: string;

  private constructor(readonly root: string, private readonly keep: boolean) {
    this.home = join(root, 'home');
    this.outside = join(root, 'outside');
    this.daemonOutput = join(root, 'daemon.out');
    mkdirSync(this.home, { mode: 0o700 });
    mkdirSync(this.outside);
    live.add(this);
  }

  static create(family: string, keep = process.env['CCCC_TORTURE_KEEP'] === '1'): Sandbox {
    return new Sandbox(mkdtempSync(join(tmpdir(), `torture-${family}-`)), keep);
  }

  [Symbol.dispose](): void {
    if (!live.delete(this)) return;
    if (this.keep) process.stdout.write(`   # kept ${this.root}\n`);
    else rmSync(this.root, { recursive: true, force: true });
  }
}
