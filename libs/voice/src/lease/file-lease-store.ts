import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileLock, writeFileAtomic } from '@cccc/durable-fs';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { decideLease } from './lease-core.js';
import type { LeaseRecord, LeaseRequest, LeaseResult, PublicLease, RecordingLeaseStore } from './lease-types.js';


export const LEASE_FILE = join('state', 'voice_secretary_recording_lease.json');

export interface FileLeaseStoreOptions {
  /** Clock for tests; `Date.now` by default. */
  readonly now?: () => number;
  /** How long to wait for the `.lock` file. */
  readonly lockTimeoutMs?: number;
}

/**
 * The recording lease of one CCCC_HOME in `$CCCC_HOME/state/voice_secretary_recording_lease.json`.
 * Every request (status too, since it may clear an expired lease) runs under a kernel flock on
 * the sibling `.lock`: the daemon and a Web process sharing the home serialize on it, and a
 * holder that dies releases it.
 */
export class FileLeaseStore implements RecordingLeaseStore {
  readonly path: string;
  readonly lockPath: string;
  private readonly now: () => number;

  constructor(
    home: string,
    private readonly options: FileLeaseStoreOptions = {},
  ) {
    this.path = join(home, LEASE_FILE);
    this.lockPath = `${this.path}.lock`;
    this.now = options.now ?? Date.now;
  }

  async update(request: LeaseRequest): Promise<LeaseResult> {
    return this.locked(async () => {
      const decision = decideLease(await this.load(), request, { nowMs: this.now(), newLeaseId: () => `vrl_${randomUUID().replace(/-/g, '')}` });
      if (decision.write !== undefined) await this.save(decision.write);
      return decision.result;
    });
  }

  async current(): Promise<PublicLease | undefined> {
    const result = await this.update({ action: 'status', group_id: '', voice_enabled: true });
    return result.lease;
  }

  private async locked<T>(body: () => Promise<T>): Promise<T> {
    let lock: FileLock;
    try {
      lock = await FileLock.acquire(this.lockPath, this.options.lockTimeoutMs ?? 10_000);
    } catch (err) {
      throw voiceError(VoiceErrorCodes.ioError, `recording lease lock: ${(err as Error).message}`);
    }
    try {
      return await body();
    } finally {
      lock.release();
    }
  }

  private async load(): Promise<LeaseRecord | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw voiceError(VoiceErrorCodes.ioError, `cannot read the recording lease: ${(err as Error).message}`);
    }
    try {
      const doc = JSON.parse(text) as { schema?: unknown; lease?: Partial<LeaseRecord> };
      const lease = doc?.schema === 1 ? doc.lease : undefined;
      // A record without its id or expiry is no lease: treat it as free (the next write replaces it).
      if (!lease || typeof lease.lease_id !== 'string' || typeof lease.expires_at_ms !== 'number' || typeof lease.owner_id !== 'string') return undefined;
      return lease as LeaseRecord;
    } catch {
      return undefined;
    }
  }

  private async save(lease: LeaseRecord | null): Promise<void> {
    const doc = { schema: 1, kind: 'voice_secretary_recording_lease', lease: lease ?? {} };
    try {
      await writeFileAtomic(this.path, `${JSON.stringify(doc, null, 2)}\n`, 0o600);
    } catch (err) {
      throw voiceError(VoiceErrorCodes.ioError, `cannot write the recording lease: ${(err as Error).message}`);
    }
  }
}


