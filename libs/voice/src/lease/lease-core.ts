import { voiceError, VoiceErrorCodes } from '../errors.js';
import type { LeaseRecord, LeaseRequest, LeaseResult, PublicLease } from './lease-types.js';

export const LEASE_TTL_DEFAULT_SECONDS = 30;
export const LEASE_TTL_MIN_SECONDS = 5;
export const LEASE_TTL_MAX_SECONDS = 120;

/** What one lease request decides: the answer, and the record to store when it changed. */
export interface LeaseDecision {
  readonly result: LeaseResult;
  /** `undefined`: nothing to write; `null`: clear the lease; a record: store it. */
  readonly write: LeaseRecord | null | undefined;
}

export interface LeaseClock {
  readonly nowMs: number;
  readonly newLeaseId: () => string;
}

export function publicLease(lease: LeaseRecord): PublicLease {
  const { lease_id: _id, expires_at_ms: _ms, ...rest } = lease;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== '')) as unknown as PublicLease;
}

/** The ttl the daemon grants: the default when omitted, clamped to its bounds. */
export function leaseTtlSeconds(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return LEASE_TTL_DEFAULT_SECONDS;
  return Math.min(LEASE_TTL_MAX_SECONDS, Math.max(LEASE_TTL_MIN_SECONDS, Math.floor(requested)));
}

/** Checks that need no state: run them before taking the lock. */
export function validateLeaseRequest(request: Pick<LeaseRequest, 'action' | 'owner_id' | 'lease_id'>): void {
  if (request.action !== 'status' && !request.owner_id?.trim()) {
    throw voiceError(VoiceErrorCodes.missingOwnerId, `${request.action} needs owner_id`);
  }
  if ((request.action === 'heartbeat' || request.action === 'release') && !request.lease_id?.trim()) {
    throw voiceError(VoiceErrorCodes.missingLeaseId, `${request.action} needs the lease_id acquire returned`);
  }
}

function busy(active: LeaseRecord): Error {
  return voiceError(VoiceErrorCodes.recordingBusy, 'a Voice Secretary recording is already active', { active_lease: publicLease(active) });
}

function matches(active: LeaseRecord | undefined, request: LeaseRequest): active is LeaseRecord {
  return !!active && active.group_id === request.group_id && active.owner_id === request.owner_id?.trim() && active.lease_id === request.lease_id?.trim();
}

/**
 * The pure lease rules (spec §8.3 assistant_voice_recording_lease). `stored` is what the file
 * holds, expired or not. Every acquire mints a fresh lease_id; heartbeat refreshes only the
 * matching owner + lease and never creates one; a stale heartbeat / release answers `lost`
 * without touching a newer lease. Throws the request's error code (the caller writes nothing).
 */
export function decideLease(stored: LeaseRecord | undefined, request: LeaseRequest, clock: LeaseClock): LeaseDecision {
  validateLeaseRequest(request);
  const live = stored && stored.expires_at_ms > clock.nowMs ? stored : undefined;
  // An expired lease is cleared by whatever request finds it (status included).
  const cleared: null | undefined = stored && !live ? null : undefined;
  const base = { group_id: request.group_id, action: request.action, acquired: false, released: false, lost: false };
  const owner = request.owner_id?.trim() ?? '';

  if (!request.voice_enabled && (request.action === 'acquire' || request.action === 'heartbeat')) {
    // Direct dictation into the composer may record while Voice Secretary is off; a heartbeat
    // that names no target inherits the target of the lease it refreshes.
    const target = request.dispatch_target ?? (request.action === 'heartbeat' && matches(live, request) ? live.dispatch_target : undefined);
    const staleHeartbeat = request.action === 'heartbeat' && request.dispatch_target === undefined && !matches(live, request);
    if (target !== 'composer' && !staleHeartbeat) {
      throw voiceError(VoiceErrorCodes.assistantDisabled, 'Voice Secretary is disabled: only dispatch_target "composer" may record');
    }
  }

  switch (request.action) {
    case 'status':
      return { result: { ...base, ...(live ? { lease: publicLease(live) } : {}) }, write: cleared };
    case 'release': {
      if (matches(live, request)) return { result: { ...base, released: true }, write: null };
      return { result: { ...base, lost: true, ...(live ? { lease: publicLease(live) } : {}) }, write: cleared };
    }
    case 'acquire': {
      if (live && (live.owner_id !== owner || live.group_id !== request.group_id)) throw busy(live);
      const next = buildLease(undefined, request, clock);
      return { result: { ...base, acquired: true, lease_id: next.lease_id, lease: publicLease(next) }, write: next };
    }
    case 'heartbeat': {
      if (live && (live.owner_id !== owner || live.group_id !== request.group_id)) throw busy(live);
      if (!matches(live, request)) return { result: { ...base, lost: true, ...(live ? { lease: publicLease(live) } : {}) }, write: cleared };
      const next = buildLease(live, request, clock);
      return { result: { ...base, acquired: true, lease_id: next.lease_id, lease: publicLease(next) }, write: next };
    }
  }
}

/** A fresh lease (acquire) or the refreshed `previous` (heartbeat: same id, created_at and omitted metadata). */
function buildLease(previous: LeaseRecord | undefined, request: LeaseRequest, clock: LeaseClock): LeaseRecord {
  const now = new Date(clock.nowMs).toISOString();
  const expiresMs = clock.nowMs + leaseTtlSeconds(request.ttl_seconds) * 1000;
  const pick = (key: 'capture_mode' | 'recognition_backend' | 'dispatch_target' | 'by' | 'group_title') => request[key] ?? previous?.[key];
  const lease: LeaseRecord = {
    lease_id: previous?.lease_id ?? clock.newLeaseId(),
    owner_id: request.owner_id!.trim(),
    group_id: request.group_id,
    group_title: pick('group_title'),
    capture_mode: pick('capture_mode'),
    recognition_backend: pick('recognition_backend'),
    dispatch_target: pick('dispatch_target'),
    by: pick('by') ?? 'user',
    created_at: previous?.created_at ?? now,
    updated_at: now,
    expires_at: new Date(expiresMs).toISOString(),
    expires_at_ms: expiresMs,
  };
  return Object.fromEntries(Object.entries(lease).filter(([, v]) => v !== undefined)) as unknown as LeaseRecord;
}
