import { describe, expect, it } from 'vitest';
import { COHORT_WAIT_MS, CommitCohort } from './commit-cohort.js';

describe('CommitCohort', () => {
  it('never holds a lone writer: one answered append expects one back', () => {
    let now = 0;
    const cohort = new CommitCohort(() => now);
    expect(cohort.gather(1)).toBeUndefined(); // nothing answered yet
    cohort.answered(1, 0);
    now += 0.1;
    expect(cohort.gather(1)).toBeUndefined();
  });

  it('holds the next batch until the writers just answered are back beside those already queued', async () => {
    let now = 0;
    const cohort = new CommitCohort(() => now);
    cohort.answered(4, 3); // 4 answered while 3 more waited: 7 writers in all
    now += 0.1;
    const gathering = cohort.gather(3);
    expect(gathering).toBeInstanceOf(Promise);
    let done = false;
    void gathering!.then(() => (done = true));
    for (const queued of [4, 5, 6]) cohort.arrived(queued);
    await Promise.resolve();
    expect(done).toBe(false);
    cohort.arrived(7);
    await gathering;
    expect(done).toBe(true);
  });

  it('lets the batch go after the wait when a writer does not come back, and then expects the smaller cohort', async () => {
    let now = 0;
    const cohort = new CommitCohort(() => now);
    cohort.answered(5, 0); // e.g. an op that appended five events at once
    const gathering = cohort.gather(1); // only one append follows: the timer ends the wait
    let ended = false;
    void gathering!.then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    // Node starts a timer from the loop's cached clock, so it may end a little before 1 ms by
    // performance.now(): only that it ends, with nobody arriving, is checked.
    await gathering;
    cohort.answered(1, 0);
    expect(cohort.gather(1)).toBeUndefined();
  });

  it('does not wait for more than a batch takes (a burst over MAX_BATCH)', () => {
    const cohort = new CommitCohort(() => 0, 512);
    cohort.answered(512, 1488);
    expect(cohort.gather(1488)).toBeUndefined();
    expect(cohort.gather(511)).toBeInstanceOf(Promise);
    cohort.arrived(512);
  });

  it('does not wait once the wait has passed since the acknowledgement', () => {
    let now = 0;
    const cohort = new CommitCohort(() => now);
    cohort.answered(8, 0);
    now += COHORT_WAIT_MS;
    expect(cohort.gather(1)).toBeUndefined(); // a writer back this late is not part of that cohort
  });
});
