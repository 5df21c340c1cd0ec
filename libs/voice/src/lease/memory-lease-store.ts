import { randomUUID } from 'node:crypto';
import { decideLease } from './lease-core.js';
import type { LeaseRecord, LeaseRequest, LeaseResult, PublicLease, RecordingLeaseStore } from './lease-types.js';

/** The lease rules over one in-memory record (tests, single-process tools). Requests run one at a time. */
export class MemoryLeaseStore implements RecordingLeaseStore {
  private record: LeaseRecord | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly now: () => number = Date.now) {}

  update(request: LeaseRequest): Promise<LeaseResult> {
    const run = this.tail.then(() => {
      const decision = decideLease(this.record, request, { nowMs: this.now(), newLeaseId: () => `vrl_${randomUUID().replace(/-/g, '')}` });
      if (decision.write !== undefined) this.record = decision.write ?? undefined;
      return decision.result;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  async current(): Promise<PublicLease | undefined> {
    return (await this.update({ action: 'status', group_id: '', voice_enabled: true })).lease;
  }
}
