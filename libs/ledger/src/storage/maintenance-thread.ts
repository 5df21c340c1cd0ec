import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/** A job for the thread, as maintenance-worker.js reads it. */
type Job = { kind: 'prescan'; path: string } | { kind: 'gzip'; source: string; target: string };
/** What the thread answers: the pre-read's scan (null: missing file or a record that is no event), or the gzip's size. */
type Answer<J extends Job> = J extends { kind: 'prescan' } ? { readonly ino: number; readonly end: number; readonly lines: number } | null : number;

/**
 * How long the thread waits for more work before it exits: longer than the gap between a
 * rotation's steps (the sealing under the writer lock, the manifest: tens of milliseconds), so a
 * rotation starts one thread, not two; short enough that what a job left on the thread's heap and
 * malloc arenas (megabytes of read buffers and deflate output, about 14 MiB of resident memory in
 * all) goes with the thread right after each rotation instead of staying resident for seconds or
 * piling up over rotations.
 */
export const MAINTENANCE_KEEP_ALIVE_MS = 1_000;

/**
 * The process's thread for a rotation's heavy steps: the strict pre-read of the active file and
 * the gzip of a sealed segment, at the lowest CPU priority (maintenance-worker.js). Starting a
 * worker thread costs tens of milliseconds of CPU at normal priority (its nice value applies only
 * once it runs), taken on a machine with few cores from the threads serving requests, inside the
 * rotation. So one thread serves the steps of a rotation (and of rotations of other groups that
 * come meanwhile), and exits after `keepAliveMs` without work; an idle thread never keeps the
 * process alive.
 */
export class MaintenanceThread {
  private static instance: MaintenanceThread | undefined;
  /** Threads this process started (observability and tests). */
  static started = 0;
  static keepAliveMs = MAINTENANCE_KEEP_ALIVE_MS;

  /** The running thread, started if there is none. */
  static shared(): MaintenanceThread {
    if (!MaintenanceThread.instance) MaintenanceThread.instance = new MaintenanceThread();
    return MaintenanceThread.instance;
  }

  /** The running thread, if any, without starting one. */
  static current(): MaintenanceThread | undefined {
    return MaintenanceThread.instance;
  }

  /** Stop the running thread; a job in flight rejects. */
  static async stop(): Promise<void> {
    const thread = MaintenanceThread.instance;
    if (thread) await thread.worker.terminate();
  }

  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private nextId = 0;
  private idle: NodeJS.Timeout | undefined;
  /** The thread ran: a job failing after this failed in the thread, not because no thread could start. */
  online = false;

  private constructor() {
    MaintenanceThread.started += 1;
    // tsup emits the worker next to the bundle that holds this module (dist/); the sources keep
    // it next to this file, so the same relative URL works for both.
    const threadsBefore = processThreads();
    this.worker = new Worker(new URL('./maintenance-worker.js', import.meta.url));
    lowerStartingThread(threadsBefore);
    this.worker.once('online', () => (this.online = true));
    this.worker.on('message', (reply: { id: number; result?: unknown; error?: string }) => {
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      if (reply.error !== undefined) job.reject(new Error(reply.error));
      else job.resolve(reply.result);
      this.armIdle();
    });
    this.worker.on('error', (err) => this.ended(err));
    this.worker.once('exit', (code) => this.ended(new Error(`maintenance thread exited with code ${code}`)));
    // Only a job in flight keeps the process alive, like any pending I/O; an idle thread never
    // does. After the listeners: adding a 'message' listener refs the worker again.
    this.worker.unref();
  }

  run<J extends Job>(job: J): Promise<Answer<J>> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const id = ++this.nextId;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, ...job });
    });
  }

  private armIdle(): void {
    if (this.pending.size > 0) return;
    this.worker.unref();
    if (MaintenanceThread.instance !== this) return;
    this.idle = setTimeout(() => {
      if (this.pending.size > 0) return;
      // Forgotten before it exits: a job that comes while it winds down starts a new thread
      // instead of being posted to one that will never answer it.
      if (MaintenanceThread.instance === this) MaintenanceThread.instance = undefined;
      void this.worker.terminate();
    }, MaintenanceThread.keepAliveMs);
    this.idle.unref();
  }

  /** The thread is gone (it exited, was stopped or failed): its jobs reject, and the next job starts another. */
  private ended(err: Error): void {
    if (MaintenanceThread.instance === this) MaintenanceThread.instance = undefined;
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    for (const job of this.pending.values()) job.reject(err);
    this.pending.clear();
  }
}

/** The process's thread ids, where the system lists them (Linux); empty elsewhere. */
function processThreads(): string[] {
  try {
    return readdirSync('/proc/self/task');
  } catch {
    return [];
  }
}

/**
 * Lower the priority of the thread `new Worker` just created, before its start-up runs: that
 * start-up (tens of milliseconds of CPU) would otherwise run at normal priority, since the
 * worker can lower its own only once its script runs. The worker's thread is the one id that
 * was not there before the constructor (which creates it synchronously); anything else (none,
 * or more than one new id) leaves every thread alone.
 */
function lowerStartingThread(before: readonly string[]): void {
  if (before.length === 0) return;
  const known = new Set(before);
  const fresh = processThreads().filter((tid) => !known.has(tid));
  if (fresh.length !== 1) return;
  try {
    setPriority(Number(fresh[0]), 19); // on Linux, a thread id names that thread alone
  } catch {
    // not permitted here: the worker still lowers its own once it runs
  }
}
