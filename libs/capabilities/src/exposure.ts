import { shortHash } from './canonical.js';
import { roleOfActor, type GroupView } from './group-view.js';
import { recordPolicy } from './policy.js';
import type { CapabilityRecord } from './records.js';
import type { CapabilitySnapshot } from './snapshot.js';
import { blockOf } from './state.js';

// What one actor has in effect: its capabilities (with where each comes from), the MCP tools it
// sees and the capsule skills it carries. Pure over a snapshot.

export interface Activation {
  readonly scope: 'group' | 'actor' | 'session' | 'role' | 'autoload' | 'profile';
  readonly actor_id?: string;
  readonly expires_at?: string;
  readonly ttl_seconds?: number;
}

export interface HiddenCapability {
  readonly capability_id: string;
  readonly reason: string;
  readonly record?: CapabilityRecord;
  readonly blocked?: boolean;
}

export interface DynamicToolView {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly capability_id: string;
  readonly real_tool_name: string;
}

export interface Exposure {
  readonly active: ReadonlyMap<string, { record: CapabilityRecord; sources: Activation[] }>;
  readonly hidden: HiddenCapability[];
  readonly coreTools: string[];
  readonly visibleTools: string[];
  readonly dynamicTools: DynamicToolView[];
  readonly dynamicDropped: number;
}

/** Every binding source for the actor, before policy and blocks filter them. */
export function bindingSources(snap: CapabilitySnapshot, group: GroupView, actorId: string, now: number): Map<string, Activation[]> {
  const out = new Map<string, Activation[]>();
  const add = (cap: string, a: Activation) => out.set(cap, [...(out.get(cap) ?? []), a]);
  const { state, policy } = snap;
  const gid = group.group_id;
  const removed = new Set(state.removed[gid] ?? []);
  const role = roleOfActor(group, actorId);
  const roleDefaults = role === 'foreman' || role === 'user' ? policy.role_defaults.foreman : role === 'peer' ? policy.role_defaults.peer : [];
  for (const cap of roleDefaults) if (!removed.has(cap)) add(cap, { scope: 'role' });
  const actor = group.actors.find((a) => a.id === actorId);
  for (const cap of actor?.capability_autoload ?? []) if (!removed.has(cap)) add(cap, { scope: 'autoload', actor_id: actorId });
  for (const cap of actor?.profile?.autoload ?? []) if (!removed.has(cap)) add(cap, { scope: 'profile', actor_id: actorId });
  for (const cap of Object.keys(state.group_bindings[gid] ?? {})) add(cap, { scope: 'group' });
  for (const cap of Object.keys(state.actor_bindings[gid]?.[actorId] ?? {})) add(cap, { scope: 'actor', actor_id: actorId });
  for (const [cap, b] of Object.entries(state.session_bindings[gid]?.[actorId] ?? {})) {
    if (Date.parse(b.expires_at) > now) add(cap, { scope: 'session', actor_id: actorId, expires_at: b.expires_at, ttl_seconds: b.ttl_seconds });
  }
  return out;
}

/** The synthetic MCP name of an external tool: stable per capability and tool, at most 64 chars. */
export function dynamicToolName(capabilityId: string, toolName: string): string {
  const tail = toolName.replace(/[^A-Za-z0-9_-]/g, '_');
  return `cccc_ext_${shortHash(capabilityId, 8)}_${tail}`.slice(0, 64);
}

export function exposureOf(snap: CapabilitySnapshot, group: GroupView, actorId: string, now: number, maxDynamic: number): Exposure {
  const active = new Map<string, { record: CapabilityRecord; sources: Activation[] }>();
  const hidden: HiddenCapability[] = [];
  for (const [cap, sources] of bindingSources(snap, group, actorId, now)) {
    const record = snap.catalog.get(cap);
    if (!record) {
      hidden.push({ capability_id: cap, reason: 'capability_not_found' });
      continue;
    }
    const hit = blockOf(snap.state, group.group_id, cap);
    if (hit) {
      hidden.push({ capability_id: cap, reason: hit.scope === 'global' ? 'blocked_global' : 'blocked_group', record, blocked: true });
      continue;
    }
    const policy = recordPolicy(snap.policy, record);
    if (!policy.visible) {
      hidden.push({ capability_id: cap, reason: 'policy_level_indexed', record });
      continue;
    }
    active.set(cap, { record, sources });
  }
  const coreTools = [...snap.policy.base_tools];
  const visible = new Set(coreTools);
  for (const { record } of active.values()) for (const tool of record.tool_names ?? []) visible.add(tool);
  const dynamic: DynamicToolView[] = [];
  for (const { record } of active.values()) {
    const installation = snap.state.installations[record.capability_id];
    if (record.install_mode === 'builtin' || !installation || installation.install_state === 'install_failed') continue;
    for (const tool of installation.tools) {
      dynamic.push({
        name: dynamicToolName(record.capability_id, tool.name),
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema,
        capability_id: record.capability_id,
        real_tool_name: tool.name,
      });
    }
  }
  dynamic.sort((a, b) => a.name.localeCompare(b.name));
  const shown = dynamic.slice(0, maxDynamic);
  return {
    active,
    hidden,
    coreTools,
    visibleTools: [...visible, ...shown.map((t) => t.name)],
    dynamicTools: shown,
    dynamicDropped: dynamic.length - shown.length,
  };
}
