import type { CapabilityEnableResult, EnableScope } from '@cccc/ipc-protocol';
import type { CapabilityLimits } from './limits.js';
import { recordPolicy } from './policy.js';
import type { CapabilityRecord } from './records.js';
import type { CapabilitySnapshot } from './snapshot.js';
import { blockOf, type CapabilityState } from './state.js';

// Binding transitions of capability_enable, pure over a mutable state draft.

export interface BindingTarget {
  readonly groupId: string;
  readonly actorId: string;
  readonly scope: EnableScope;
  readonly by: string;
  readonly reason?: string;
  readonly ttlSeconds: number;
  readonly now: number;
}

type Refusal = Pick<CapabilityEnableResult, 'state'> & Partial<Pick<CapabilityEnableResult, 'reason' | 'policy_level' | 'retryable'>>;

/** Why this record cannot be bound now (block, policy or quota), or undefined when it can. */
export function enableRefusal(snap: CapabilitySnapshot, state: CapabilityState, record: CapabilityRecord, target: BindingTarget, limits: CapabilityLimits): Refusal | undefined {
  const hit = blockOf(state, target.groupId, record.capability_id);
  if (hit) return { state: 'blocked', reason: hit.scope === 'global' ? 'blocked_global' : 'blocked_group' };
  const policy = recordPolicy(snap.policy, record);
  if (!policy.enableSupported) return { state: 'blocked', reason: policy.blockReason ?? 'capability_unavailable', policy_level: policy.level };
  if (isBound(state, record.capability_id, target)) return undefined;
  if (target.scope === 'group') {
    const count = Object.keys(state.group_bindings[target.groupId] ?? {}).length;
    if (count >= limits.maxEnabledPerGroup) return { state: 'failed', reason: 'quota_exceeded:max_enabled_per_group', retryable: false };
  } else if (record.kind !== 'skill') {
    const mine = new Set([
      ...Object.keys(state.actor_bindings[target.groupId]?.[target.actorId] ?? {}),
      ...Object.keys(state.session_bindings[target.groupId]?.[target.actorId] ?? {}),
    ]);
    const nonSkill = [...mine].filter((cap) => snap.catalog.get(cap)?.kind !== 'skill');
    if (nonSkill.length >= limits.maxEnabledPerActor) return { state: 'failed', reason: 'quota_exceeded:max_enabled_per_actor', retryable: false };
  }
  return undefined;
}

export function isBound(state: CapabilityState, capabilityId: string, target: Pick<BindingTarget, 'groupId' | 'actorId' | 'scope'>): boolean {
  if (target.scope === 'group') return state.group_bindings[target.groupId]?.[capabilityId] !== undefined;
  if (target.scope === 'actor') return state.actor_bindings[target.groupId]?.[target.actorId]?.[capabilityId] !== undefined;
  return state.session_bindings[target.groupId]?.[target.actorId]?.[capabilityId] !== undefined;
}

/** Write the binding (a session binding is renewed, others kept). Also clears the group's uninstall marker. */
export function bind(state: CapabilityState, capabilityId: string, target: BindingTarget): void {
  const at = new Date(target.now).toISOString();
  const base = { by: target.by, at, ...(target.reason ? { reason: target.reason } : {}) };
  const gid = target.groupId;
  // An existing group or actor binding is kept as it is (re-enabling is not a change).
  if (target.scope === 'group') {
    (state.group_bindings[gid] ??= {})[capabilityId] ??= base;
  } else if (target.scope === 'actor') {
    ((state.actor_bindings[gid] ??= {})[target.actorId] ??= {})[capabilityId] ??= base;
  } else {
    const expires = new Date(target.now + target.ttlSeconds * 1000).toISOString();
    ((state.session_bindings[gid] ??= {})[target.actorId] ??= {})[capabilityId] = { ...base, expires_at: expires, ttl_seconds: target.ttlSeconds };
  }
  const removed = state.removed[gid];
  if (removed?.includes(capabilityId)) state.removed[gid] = removed.filter((c) => c !== capabilityId);
}

/** Remove the binding at exactly this scope. Returns how many were removed (0 or 1). */
export function unbind(state: CapabilityState, capabilityId: string, target: Pick<BindingTarget, 'groupId' | 'actorId' | 'scope'>): number {
  const gid = target.groupId;
  const table =
    target.scope === 'group'
      ? state.group_bindings[gid]
      : target.scope === 'actor'
        ? state.actor_bindings[gid]?.[target.actorId]
        : state.session_bindings[gid]?.[target.actorId];
  if (!table?.[capabilityId]) return 0;
  delete table[capabilityId];
  return 1;
}
