import type { ChildProcess } from 'node:child_process';
import type { ManagedExit } from './runtime-adapter.js';

const STDERR_TAIL = 4_000;

/** Signal a whole process group; a group already gone is not an error. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * A managed session's provider process (codex app-server, an ACP agent), spawned detached as the
 * leader of its own process group. Whatever ends it, nothing of its group stays: providers are
 * often launchers whose native child (or helpers) would outlive a leader killed outright.
 */
export class ProviderProcess {
  /** Resolves once the leader is gone and `onExit` has run. */
  readonly exited: Promise<void>;
  private tail = '';

  /**
   * `reason` names why it ended when it exits (e.g. `stopped`), undefined for an exit of its own;
   * `onExit` runs synchronously with the exit, before `exited` resolves.
   */
  constructor(
    private readonly child: ChildProcess,
    reason: () => string | undefined,
    onExit: (exit: ManagedExit) => void,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        onExit({ code, signal, reason: reason() ?? 'exited' });
        resolve();
      });
      // A spawn that failed has no exit to wait for.
      child.once('error', () => {
        if (child.pid !== undefined) return;
        onExit({ code: null, signal: null, reason: 'spawn_failed' });
        resolve();
      });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString()).slice(-STDERR_TAIL);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last few thousand characters it wrote to stderr (for start failures). */
  get stderrTail(): string {
    return this.tail;
  }

  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once it is gone, helpers included. */
  async terminate(graceMs: number): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined || this.child.exitCode !== null || this.child.signalCode !== null) return this.exited;
    signalGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    signalGroup(pid, 'SIGKILL'); // helpers it left in its group
  }
}
