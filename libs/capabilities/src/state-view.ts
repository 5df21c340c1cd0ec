import type { OpResult } from '@cccc/ipc-protocol';
import { exposureOf } from './exposure.js';
import { roleOfActor, type GroupView } from './group-view.js';
import type { CapabilityLimits } from './limits.js';
import { recordPolicy } from './policy.js';
import type { CapabilitySnapshot } from './snapshot.js';
import { blockOf } from './state.js';
import { sourceStates } from './views.js';

// capability_state: one actor's effective exposure, read from one snapshot (no lifecycle lock).

type StateResult = OpResult<'capability_state'>;

const preview = (text: string | undefined) => (text ? (text.length > 240 ? `${text.slice(0, 237)}...` : text) : undefined);

export function stateView(snap: CapabilitySnapshot, group: GroupView, actorId: string, now: number, limits: CapabilityLimits): StateResult {
  const exposure = exposureOf(snap, group, actorId, now, limits.maxDynamicToolsVisible);
  const gid = group.group_id;
  const actor = group.actors.find((a) => a.id === actorId);
  const skills = [...exposure.active.values()]
    .filter(({ record }) => record.kind === 'skill')
    .map(({ record, sources }) => ({
      capability_id: record.capability_id,
      name: record.name,
      description_short: record.description_short,
      ...(record.capsule_text ? { capsule_preview: preview(record.capsule_text)!, capsule_text: record.capsule_text } : {}),
      source_id: record.source_id,
      ...(record.source_uri ? { source_uri: record.source_uri } : {}),
      policy_level: recordPolicy(snap.policy, record).level,
      activation_sources: sources
        .filter((s) => s.scope === 'group' || s.scope === 'actor' || s.scope === 'session')
        .map((s) => ({ scope: s.scope as 'group' | 'actor' | 'session', ...(s.actor_id ? { actor_id: s.actor_id } : {}), ...(s.expires_at ? { expires_at: s.expires_at, ttl_seconds: s.ttl_seconds! } : {}) })),
    }));
  const externalStates: Record<string, { mode: 'mcp' | 'skill'; state: string; install_state?: string; artifact_id?: string; last_error?: string; last_error_code?: string }> = {};
  for (const { record } of exposure.active.values()) {
    if (record.kind !== 'mcp_toolpack' || record.install_mode === 'builtin') continue;
    const inst = snap.state.installations[record.capability_id];
    externalStates[record.capability_id] = {
      mode: 'mcp',
      state: inst && inst.install_state !== 'install_failed' ? 'runnable' : 'activation_pending',
      ...(inst ? { install_state: inst.install_state, artifact_id: inst.artifact_id } : {}),
      ...(inst?.last_error ? { last_error: inst.last_error } : {}),
      ...(inst?.last_error_code ? { last_error_code: inst.last_error_code } : {}),
    };
  }
  const blocked = [
    ...Object.entries(snap.state.blocked_global).map(([capability_id, b]) => ({ capability_id, scope: 'global' as const, ...b })),
    ...Object.entries(snap.state.blocked_group[gid] ?? {}).map(([capability_id, b]) => ({ capability_id, scope: 'group' as const, ...b })),
  ];
  const sessions = Object.entries(snap.state.session_bindings[gid]?.[actorId] ?? {})
    .filter(([, b]) => Date.parse(b.expires_at) > now)
    .map(([capability_id, b]) => ({ capability_id, expires_at: b.expires_at, ttl_seconds: b.ttl_seconds }));
  return {
    group_id: gid,
    actor_id: actorId,
    default_profile: 'core',
    core_tool_count: exposure.coreTools.length,
    visible_tool_count: exposure.visibleTools.length,
    visible_tools: exposure.visibleTools,
    dynamic_tools: exposure.dynamicTools.map((t) => ({ ...t })),
    dynamic_tool_limit: limits.maxDynamicToolsVisible,
    dynamic_tool_dropped: exposure.dynamicDropped,
    enabled_capabilities: [...exposure.active.keys()].sort(),
    active_capsule_skills: skills,
    autoload_capabilities: [...new Set([...(actor?.capability_autoload ?? []), ...(actor?.profile?.autoload ?? [])])],
    actor_autoload_capabilities: [...(actor?.capability_autoload ?? [])],
    profile_autoload_capabilities: [...(actor?.profile?.autoload ?? [])],
    actor_hidden_capabilities: [...new Set([...(actor?.capability_hidden ?? []), ...(snap.state.hidden[gid]?.[actorId] ?? [])])].sort(),
    hidden_capabilities: exposure.hidden.map((h) => ({
      capability_id: h.capability_id,
      reason: h.reason,
      ...(h.record ? { name: h.record.name, description_short: h.record.description_short, kind: h.record.kind, source_id: h.record.source_id } : {}),
      ...(h.blocked ? { policy_level: 'blocked' as const } : {}),
    })),
    external_binding_states: externalStates,
    precedence_chain: ['session', 'actor', 'group'],
    session_bindings: sessions,
    source_states: sourceStates(snap, now),
    blocked_capabilities: blocked,
    is_foreman: roleOfActor(group, actorId) === 'foreman',
  };
}

export function usageView(snap: CapabilitySnapshot, group: GroupView, capabilityId: string, now: number): NonNullable<StateResult['capability_usage']> {
  const gid = group.group_id;
  const ref = (actorId: string) => {
    const a = group.actors.find((x) => x.id === actorId);
    return { actor_id: actorId, ...(a?.title ? { actor_title: a.title } : {}), label: a?.title || actorId };
  };
  const actorEnabled = Object.entries(snap.state.actor_bindings[gid] ?? {})
    .filter(([, caps]) => caps[capabilityId])
    .map(([aid]) => ref(aid));
  const sessionEnabled = Object.entries(snap.state.session_bindings[gid] ?? {}).flatMap(([aid, caps]) => {
    const b = caps[capabilityId];
    return b && Date.parse(b.expires_at) > now ? [{ ...ref(aid), expires_at: b.expires_at, ttl_seconds: b.ttl_seconds }] : [];
  });
  const autoload = group.actors.filter((a) => a.capability_autoload?.includes(capabilityId)).map((a) => ref(a.id));
  const profileAutoload = group.actors
    .filter((a) => a.profile?.autoload.includes(capabilityId))
    .map((a) => ({ ...ref(a.id), profile_id: a.profile!.id, ...(a.profile!.name ? { profile_name: a.profile!.name } : {}) }));
  const groupEnabled = snap.state.group_bindings[gid]?.[capabilityId] !== undefined;
  const hit = blockOf(snap.state, gid, capabilityId);
  return {
    capability_id: capabilityId,
    used: groupEnabled || actorEnabled.length > 0 || sessionEnabled.length > 0 || autoload.length > 0 || profileAutoload.length > 0,
    group_enabled: groupEnabled,
    group_actor_count: group.actors.length,
    actor_enabled: actorEnabled,
    session_enabled: sessionEnabled,
    actor_autoload: autoload,
    profile_autoload: profileAutoload,
    blocked: hit !== undefined,
    ...(hit ? { blocked_scope: hit.scope, ...(hit.block.reason ? { blocked_reason: hit.block.reason } : {}) } : {}),
  };
}
