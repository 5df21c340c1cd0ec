import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { requireOnFirstUse } from '@cccc/durable-fs';
import { spaceError } from './errors.js';
import { newId, nowIso } from './ids.js';
import type { Lane } from './lanes.js';

// The native addon loads when a database is first opened, not with the package (idle memory).
const sqlite = requireOnFirstUse<typeof Database>(import.meta.url, 'better-sqlite3');

export const JOB_STATES = ['pending', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export type SpaceJob = {
  job_id: string;
  group_id: string;
  provider: string;
  lane: Lane;
  kind: string;
  remote_space_id: string;
  idempotency_key: string;
  state: JobState;
  payload: Record<string, unknown>;
  attempt_count: number;
  max_attempts: number;
  result: Record<string, unknown> | null;
  last_error: { code: string; message: string } | null;
  by: string;
  created_at: string;
  updated_at: string;
};

export interface NewJob {
  group_id: string;
  provider: string;
  lane: Lane;
  kind: string;
  remote_space_id: string;
  idempotency_key: string;
  payload: Record<string, unknown>;
  by: string;
  max_attempts?: number;
}

export type QueueSummary = {
  pending: number;
  running: number;
  failed: number;
};

interface Row {
  job_id: string;
  group_id: string;
  provider: string;
  lane: Lane;
  kind: string;
  remote_space_id: string;
  idempotency_key: string;
  state: JobState;
  payload: string;
  attempt_count: number;
  max_attempts: number;
  result: string | null;
  last_error: string | null;
  by: string;
  created_at: string;
  updated_at: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  seq INTEGER PRIMARY KEY, job_id TEXT NOT NULL UNIQUE, group_id TEXT NOT NULL, provider TEXT NOT NULL,
  lane TEXT NOT NULL, kind TEXT NOT NULL, remote_space_id TEXT NOT NULL, idempotency_key TEXT NOT NULL,
  state TEXT NOT NULL, payload TEXT NOT NULL, attempt_count INTEGER NOT NULL, max_attempts INTEGER NOT NULL,
  result TEXT, last_error TEXT, by TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  UNIQUE(lane, idempotency_key));
CREATE INDEX IF NOT EXISTS jobs_lane_state ON jobs(lane, state);
`;

const toJob = (r: Row): SpaceJob => ({
  ...r,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  result: r.result === null ? null : (JSON.parse(r.result) as Record<string, unknown>),
  last_error: r.last_error === null ? null : (JSON.parse(r.last_error) as { code: string; message: string }),
});

/**
 * The durable job queue of one group's space: one SQLite file (WAL, synchronous=FULL), so a job
 * row is on disk before its provider mutation starts and a `kill -9` loses no committed state.
 * `(lane, idempotency_key)` is unique: enqueueing a key twice returns the first job.
 */
export class SpaceJobQueue {
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new (sqlite())(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  /**
   * Persist a new job, or return the one that already holds its idempotency key. With `start`
   * the job is written `running` with its first attempt counted (one commit instead of two,
   * still before any provider call); otherwise `pending`.
   */
  enqueue(job: NewJob, options: { start?: boolean } = {}): { job: SpaceJob; deduped: boolean } {
    return this.db
      .transaction(() => {
        const existing = this.byKey(job.lane, job.idempotency_key);
        if (existing) return { job: existing, deduped: true };
        const at = nowIso();
        const id = newId('spj');
        this.db
          .prepare(
            'INSERT INTO jobs (job_id, group_id, provider, lane, kind, remote_space_id, idempotency_key, state, payload, attempt_count, max_attempts, result, last_error, by, created_at, updated_at) ' +
              'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)',
          )
          .run(id, job.group_id, job.provider, job.lane, job.kind, job.remote_space_id, job.idempotency_key, options.start ? 'running' : 'pending', JSON.stringify(job.payload), options.start ? 1 : 0, job.max_attempts ?? 3, job.by, at, at);
        return { job: this.get(id)!, deduped: false };
      })
      .immediate();
  }

  get(jobId: string): SpaceJob | undefined {
    const r = this.db.prepare<[string], Row>('SELECT * FROM jobs WHERE job_id = ?').get(jobId);
    return r ? toJob(r) : undefined;
  }

  require(jobId: string, lane: Lane): SpaceJob {
    const job = this.get(jobId);
    if (!job || job.lane !== lane) throw spaceError('space_job_not_found', `no ${lane} job ${jobId}`, { job_id: jobId, lane });
    return job;
  }

  byKey(lane: Lane, key: string): SpaceJob | undefined {
    const r = this.db.prepare<[string, string], Row>('SELECT * FROM jobs WHERE lane = ? AND idempotency_key = ?').get(lane, key);
    return r ? toJob(r) : undefined;
  }

  /** Mark a pending job running and count the attempt; committed before the provider is called. */
  start(jobId: string): SpaceJob {
    this.db.prepare("UPDATE jobs SET state = 'running', attempt_count = attempt_count + 1, updated_at = ? WHERE job_id = ?").run(nowIso(), jobId);
    return this.get(jobId)!;
  }

  /** Count one more attempt of a running job (a transient failure retried with backoff). */
  retryAttempt(jobId: string, error: { code: string; message: string }): SpaceJob {
    this.db.prepare('UPDATE jobs SET attempt_count = attempt_count + 1, last_error = ?, updated_at = ? WHERE job_id = ?').run(JSON.stringify(error), nowIso(), jobId);
    return this.get(jobId)!;
  }

  succeed(jobId: string, result: Record<string, unknown>): SpaceJob {
    this.db.prepare("UPDATE jobs SET state = 'succeeded', result = ?, last_error = NULL, updated_at = ? WHERE job_id = ?").run(JSON.stringify(result), nowIso(), jobId);
    return this.get(jobId)!;
  }

  fail(jobId: string, error: { code: string; message: string }): SpaceJob {
    this.db.prepare("UPDATE jobs SET state = 'failed', last_error = ?, updated_at = ? WHERE job_id = ?").run(JSON.stringify(error), nowIso(), jobId);
    return this.get(jobId)!;
  }

  /** Keep a job running with the reason its outcome is uncertain (never retried automatically). */
  markUncertain(jobId: string, error: { code: string; message: string }): SpaceJob {
    this.db.prepare("UPDATE jobs SET state = 'running', last_error = ?, updated_at = ? WHERE job_id = ?").run(JSON.stringify(error), nowIso(), jobId);
    return this.get(jobId)!;
  }

  cancel(jobId: string): SpaceJob {
    this.db.prepare("UPDATE jobs SET state = 'canceled', updated_at = ? WHERE job_id = ?").run(nowIso(), jobId);
    return this.get(jobId)!;
  }

  /** Back to pending for an explicit retry (attempt budget starts over). */
  requeue(jobId: string): SpaceJob {
    this.db.prepare("UPDATE jobs SET state = 'pending', attempt_count = 0, updated_at = ? WHERE job_id = ?").run(nowIso(), jobId);
    return this.get(jobId)!;
  }

  list(lane: Lane, options: { state?: JobState; limit?: number } = {}): SpaceJob[] {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
    const rows = options.state
      ? this.db.prepare<[string, string, number], Row>('SELECT * FROM jobs WHERE lane = ? AND state = ? ORDER BY seq DESC LIMIT ?').all(lane, options.state, limit)
      : this.db.prepare<[string, number], Row>('SELECT * FROM jobs WHERE lane = ? ORDER BY seq DESC LIMIT ?').all(lane, limit);
    return rows.map(toJob);
  }

  /** Jobs a restarted process must look at: pending (never started) and running (maybe interrupted). */
  unsettled(): SpaceJob[] {
    return this.db.prepare<[], Row>("SELECT * FROM jobs WHERE state IN ('pending', 'running') ORDER BY seq").all().map(toJob);
  }

  summary(lane: Lane): QueueSummary {
    const rows = this.db.prepare<[string], { state: string; n: number }>('SELECT state, COUNT(*) AS n FROM jobs WHERE lane = ? GROUP BY state').all(lane);
    const n = (s: string) => rows.find((r) => r.state === s)?.n ?? 0;
    return { pending: n('pending'), running: n('running'), failed: n('failed') };
  }
}
