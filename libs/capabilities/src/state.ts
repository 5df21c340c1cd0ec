import { z } from 'zod';

// The daemon-owned capability state (state/capabilities/state.json): bindings by scope, blocks,
// per-actor hide preferences, per-group uninstall markers and cached external installations.

const Binding = z.object({ by: z.string(), at: z.string(), reason: z.string().optional() });
export type Binding = z.infer<typeof Binding>;
const SessionBinding = Binding.extend({ expires_at: z.string(), ttl_seconds: z.number() });
export type SessionBinding = z.infer<typeof SessionBinding>;
const Block = z.object({ by: z.string(), blocked_at: z.string(), reason: z.string().optional(), expires_at: z.string().optional() });
export type Block = z.infer<typeof Block>;
export const Installation = z.object({
  capability_id: z.string(),
  artifact_id: z.string(),
  install_state: z.enum(['installed', 'installed_degraded', 'install_failed']),
  install_mode: z.string(),
  /** The command that runs the server (argv); env values are never stored here. */
  argv: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  tools: z.array(z.object({ name: z.string(), description: z.string().optional(), inputSchema: z.record(z.string(), z.unknown()) })).default([]),
  installed_at: z.string(),
  last_error_code: z.string().optional(),
  last_error: z.string().optional(),
});
export type Installation = z.infer<typeof Installation>;

type ByGroup<T> = Record<string, T>;
const caps = <T extends z.ZodType>(t: T) => z.record(z.string(), t);

export const CapabilityState = z.object({
  v: z.literal(1),
  group_bindings: caps(caps(Binding)).default({}),
  actor_bindings: caps(caps(caps(Binding))).default({}),
  session_bindings: caps(caps(caps(SessionBinding))).default({}),
  blocked_global: caps(Block).default({}),
  blocked_group: caps(caps(Block)).default({}),
  hidden: caps(caps(z.array(z.string()))).default({}),
  removed: caps(z.array(z.string())).default({}),
  installations: caps(Installation).default({}),
});
export type CapabilityState = z.output<typeof CapabilityState>;
export type { ByGroup };

export function emptyState(): CapabilityState {
  return CapabilityState.parse({ v: 1 });
}

const expired = (expiresAt: string | undefined, now: number) => expiresAt !== undefined && Date.parse(expiresAt) <= now;

/** Drop expired session bindings and blocks (TTL). Returns whether anything was dropped. */
export function pruneExpired(state: CapabilityState, now: number): boolean {
  let changed = false;
  for (const actors of Object.values(state.session_bindings)) {
    for (const byCap of Object.values(actors)) {
      for (const [cap, b] of Object.entries(byCap)) {
        if (expired(b.expires_at, now)) {
          delete byCap[cap];
          changed = true;
        }
      }
    }
  }
  for (const [cap, b] of Object.entries(state.blocked_global)) {
    if (expired(b.expires_at, now)) {
      delete state.blocked_global[cap];
      changed = true;
    }
  }
  for (const byCap of Object.values(state.blocked_group)) {
    for (const [cap, b] of Object.entries(byCap)) {
      if (expired(b.expires_at, now)) {
        delete byCap[cap];
        changed = true;
      }
    }
  }
  return changed;
}

export interface BlockHit {
  readonly scope: 'group' | 'global';
  readonly block: Block;
}

/** Global blocks win over group blocks. */
export function blockOf(state: CapabilityState, groupId: string, capabilityId: string): BlockHit | undefined {
  const global = state.blocked_global[capabilityId];
  if (global) return { scope: 'global', block: global };
  const group = state.blocked_group[groupId]?.[capabilityId];
  return group ? { scope: 'group', block: group } : undefined;
}

/** Remove every binding of a capability in one group (or every group). Returns how many. */
export function revokeBindings(state: CapabilityState, capabilityId: string, groupId?: string): number {
  let removed = 0;
  const groups = (map: Record<string, unknown>) => (groupId === undefined ? Object.keys(map) : [groupId]);
  for (const gid of groups(state.group_bindings)) {
    const byCap = state.group_bindings[gid];
    if (byCap?.[capabilityId]) {
      delete byCap[capabilityId];
      removed += 1;
    }
  }
  for (const table of [state.actor_bindings, state.session_bindings] as Array<Record<string, Record<string, Record<string, unknown>>>>) {
    for (const gid of groups(table)) {
      for (const byCap of Object.values(table[gid] ?? {})) {
        if (byCap[capabilityId]) {
          delete byCap[capabilityId];
          removed += 1;
        }
      }
    }
  }
  return removed;
}

/** Is the capability bound anywhere (any group, any scope)? */
export function boundAnywhere(state: CapabilityState, capabilityId: string): boolean {
  if (Object.values(state.group_bindings).some((byCap) => byCap[capabilityId])) return true;
  for (const table of [state.actor_bindings, state.session_bindings] as Array<Record<string, Record<string, Record<string, unknown>>>>) {
    for (const actors of Object.values(table)) if (Object.values(actors).some((byCap) => byCap[capabilityId])) return true;
  }
  return false;
}
