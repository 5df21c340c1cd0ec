/** The stored lease (`state/voice_secretary_recording_lease.json` → `lease`). `lease_id` is private to its holder. */
export interface LeaseRecord {
  readonly lease_id: string;
  readonly owner_id: string;
  readonly group_id: string;
  readonly group_title?: string;
  readonly capture_mode?: string;
  readonly recognition_backend?: string;
  readonly dispatch_target?: string;
  readonly by?: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly expires_at: string;
  readonly expires_at_ms: number;
}

/** What status and conflict answers show: the record without `lease_id` / `expires_at_ms`. */
export type PublicLease = Omit<LeaseRecord, 'lease_id' | 'expires_at_ms'>;

export type LeaseAction = 'acquire' | 'heartbeat' | 'release' | 'status';

export interface LeaseRequest {
  readonly action: LeaseAction;
  readonly group_id: string;
  readonly group_title?: string;
  readonly owner_id?: string;
  readonly lease_id?: string;
  readonly ttl_seconds?: number;
  readonly capture_mode?: string;
  readonly recognition_backend?: string;
  readonly dispatch_target?: string;
  readonly by?: string;
  /** Whether Voice Secretary is enabled for the group; when not, only composer dictation may record. */
  readonly voice_enabled: boolean;
}

export interface LeaseResult {
  readonly group_id: string;
  readonly action: LeaseAction;
  readonly acquired: boolean;
  readonly released: boolean;
  readonly lost: boolean;
  /** Only to the owner that just acquired or refreshed it. */
  readonly lease_id?: string;
  readonly lease?: PublicLease;
}

/** The recording lease of one CCCC_HOME, whatever holds it (file store, memory store). */
export interface RecordingLeaseStore {
  update(request: LeaseRequest): Promise<LeaseResult>;
  /** The live lease, if any (an expired one is cleared). */
  current(): Promise<PublicLease | undefined>;
}
