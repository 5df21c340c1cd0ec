// The two profiles: `short` runs in `.ci/run` (≤ 5 minutes on a shared 2-core machine), `long`
// is the documented command for more crash cycles, more fuzz and heavier loads.

export interface Profile {
  readonly name: 'short' | 'long';
  /** Hard stop for the whole run: what is left is killed and the run fails (cases have their own timeouts). */
  readonly deadlineMs: number;
  /** kill -9 cycles under concurrent writers. */
  readonly crashCycles: number;
  /** Concurrent writer clients during the crash cycles. */
  readonly crashWriters: number;
  /** Random garbage lines (random bytes, broken JSON) fed to the daemon. */
  readonly garbageLines: number;
  /** Extra random wrong-typed argument sets per op, beyond one per JSON type and key. */
  readonly fuzzRandomPerOp: number;
  /** 16 KB sends while 20 subscribers never read (issue 20 point 2). */
  readonly stuckSends: number;
  /** Connect / disconnect cycles of the connection flood. */
  readonly floodConnections: number;
  /** Clients served at once while idle peers hold connections. */
  readonly concurrentClients: number;
  /** Rounds of (fill, forced rotation) building sealed history before rotation is timed. */
  readonly rotationRounds: number;
  /** Sends timed in each phase (steady, during forced rotations). */
  readonly rotationSamples: number;
}

export const PROFILES: Record<Profile['name'], Profile> = {
  short: {
    name: 'short',
    deadlineMs: 7 * 60_000,
    crashCycles: 10,
    crashWriters: 4,
    garbageLines: 300,
    fuzzRandomPerOp: 2,
    stuckSends: 2000,
    floodConnections: 2000,
    concurrentClients: 500,
    rotationRounds: 3,
    rotationSamples: 300,
  },
  long: {
    name: 'long',
    deadlineMs: 90 * 60_000,
    crashCycles: 60,
    crashWriters: 8,
    garbageLines: 5000,
    fuzzRandomPerOp: 25,
    stuckSends: 6000,
    floodConnections: 20_000,
    concurrentClients: 800,
    rotationRounds: 10,
    rotationSamples: 1000,
  },
};
