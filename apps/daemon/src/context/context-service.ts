import { ContextStore, contextView, overviewView, taskList, type ActorRoles, type ContextHead, type ContextPrincipal, type SyncResult, type TaskListArgs } from '@cccc/context';
import { effectiveRole, isVisibleActor, type GroupDoc, type HomeLayout } from '@cccc/groups';
import { ErrorCodes, IpcError, PreserializedResult, type OpResult } from '@cccc/ipc-protocol';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';

export interface ContextDeps {
  readonly layout: HomeLayout;
  readonly groups: GroupDocCache;
  readonly ledgers: Pick<LedgerPool, 'append'>;
  readonly groupLocks: KeyedMutex;
}

/**
 * The daemon side of Context v3: one cached store per group, principals resolved from the group
 * document (first visible actor = foreman), and one `context.sync` ledger event per persisted batch.
 */
export class ContextService {
  private readonly stores = new Map<string, ContextStore>();
  /**
   * The last `context_get` answer per group and detail, with its JSON text. A summary of 2,000
   * tasks is ~1 MB; serializing it again for every unchanged read cost more than the read
   * itself. Valid while the store's head (one object per version_state.json content) and the
   * visible actor list are the same.
   */
  private readonly views = new Map<string, { head: ContextHead; actors: string; result: PreserializedResult<OpResult<'context_get'>> }>();

  constructor(private readonly deps: ContextDeps) {}

  store(groupId: string): ContextStore {
    let store = this.stores.get(groupId);
    if (!store) {
      store = new ContextStore(this.deps.layout.groupDir(groupId));
      this.stores.set(groupId, store);
    }
    return store;
  }

  rolesOf(group: GroupDoc): ActorRoles {
    const roles = new Map<string, 'foreman' | 'peer'>();
    for (const a of group.actors) {
      const role = effectiveRole(group.actors, a.id);
      if (role) roles.set(a.id, role);
    }
    return roles;
  }

  /** `user` (and the daemon's own `system`) act as the user; an actor by its role; anyone else is refused. */
  principal(group: GroupDoc, by: string): ContextPrincipal {
    if (by === 'user' || by === 'system') return { id: by, role: 'user' };
    const role = effectiveRole(group.actors, by);
    if (!role) throw new IpcError(ErrorCodes.permissionDenied, `unknown principal ${by} for this group`, { by });
    return { id: by, role };
  }

  actorIds(group: GroupDoc): string[] {
    return group.actors.filter(isVisibleActor).map((a) => a.id);
  }

  get(groupId: string, detail: 'overview' | 'summary' | 'full'): OpResult<'context_get'> {
    const group = this.deps.groups.get(groupId);
    const store = this.store(groupId);
    if (detail === 'overview') return overviewView(store.readHead(), this.actorIds(group));
    return contextView(store.read(), detail, this.actorIds(group));
  }

  /** `get` for the wire: the same value, serialized once per context revision. */
  getSerialized(groupId: string, detail: 'overview' | 'summary' | 'full'): PreserializedResult<OpResult<'context_get'>> {
    const group = this.deps.groups.get(groupId);
    const head = this.store(groupId).readHead();
    const actors = this.actorIds(group).join('\n');
    const key = `${groupId}\n${detail}`;
    const hit = this.views.get(key);
    if (hit && hit.head === head && hit.actors === actors) return hit.result;
    const value = this.get(groupId, detail);
    const result = PreserializedResult.of(value);
    // get() read the head again; file the view only if it was built from this same revision
    // (versions change exactly when content does), never an older view under a newer head.
    if (value['version'] === head.version && value['tasks_version'] === head.tasks_version) this.views.set(key, { head, actors, result });
    return result;
  }

  list(groupId: string, args: TaskListArgs): OpResult<'task_list'> {
    this.deps.groups.get(groupId);
    return taskList(this.store(groupId).read(), args);
  }

  /** Serialized per group; the ledger hears about every batch that changed something. */
  async sync(
    groupId: string,
    by: string,
    req: { ops: readonly unknown[]; dry_run?: boolean | undefined; if_version?: string | undefined; idempotencyKey?: string | undefined },
  ): Promise<SyncResult> {
    const group = this.deps.groups.get(groupId);
    const principal = this.principal(group, by);
    return this.deps.groupLocks.run(`context:${groupId}`, async () => {
      const result = await this.store(groupId).sync({ ...req, principal, roles: this.rolesOf(group) });
      if (!result.dry_run && result.persisted) {
        // Ids and op names only: titles, notes and agent memory stay in the context files.
        const changes = result.changes.map(({ index, op, task_id, actor_id }) => ({ index, op, ...(task_id ? { task_id } : {}), ...(actor_id ? { actor_id } : {}) }));
        await this.deps.ledgers.append(groupId, { kind: 'context.sync', by, data: { version: result.version, tasks_version: result.tasks_version, changes } });
      }
      return result;
    });
  }
}
