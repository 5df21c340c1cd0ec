import {
  attachScope,
  authorizeGroupAction,
  checkPermission,
  createGroup,
  deleteGroup,
  detachScope,
  groupError,
  listGroups,
  principalOf,
  reconcileRegistry,
  redactGroup,
  setGroupState,
  updateGroupMeta,
  updateGroupSettings,
  useScope,
  type AttachResult,
} from '@cccc/groups';
import type { OpResult, OpRouter } from '@cccc/ipc-protocol';
import { formatTs, newEventId } from '@cccc/ledger';
import { writeGroup } from './group-write.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { EventFanout } from '../kernel/event-fanout.js';

type GroupDocView = OpResult<'group_update'>['group'];

/** Lock key for attaches that pick or create their group from the registry. */
const REGISTRY_LOCK = ' registry';

export type GroupsOpsDeps = StoreDeps & {
  readonly fanout: Pick<EventFanout, 'publishGlobal'>;
};

/** §8.3 Groups and Scopes (group_start/group_stop live in lifecycle.ts). */
export function registerGroupsOps(router: OpRouter, deps: GroupsOpsDeps): void {
  const { layout } = deps;

  router.register('attach', async (args) => {
    const by = principalOf(args.by);
    const result = args.group_id
      ? await attachToGroup(deps, by, args.group_id, args.path)
      : await attachAuto(deps, by, args.path);
    return { group_id: result.group_id, scope_key: result.scope_key, title: result.title };
  });

  // The read ops take group.yaml from the daemon's parsed-document cache (revalidated by a stat).
  router.register('groups', () => ({ groups: listGroups(layout, (groupId) => deps.groups.get(groupId)).map((summary) => ({ ...summary })) }));

  router.register('registry_reconcile', (args) => reconcileRegistry(layout, { removeMissing: args.remove_missing === true }));

  // `detail` is accepted for compatibility; both levels answer the redacted group.yaml.
  router.register('group_show', (args) => ({ group: redactGroup(deps.groups.get(args.group_id)) as GroupDocView }));

  router.register('group_create', async (args) => {
    const by = principalOf(args.by);
    checkPermission(by, 'group.create');
    const group = await createGroup(layout, { title: args.title, topic: args.topic });
    const { event } = await deps.ledgers.append(group.group_id, { kind: 'group.create', by, data: { title: group.title, topic: group.topic } });
    return { group_id: group.group_id, title: group.title, event };
  });

  router.register('group_update', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => {
        authorizeGroupAction(layout, by, 'group.update', args.group_id);
        if (args.patch.title === undefined && args.patch.topic === undefined) {
          throw groupError('invalid_patch', 'patch must set title and/or topic', { field: 'patch' });
        }
        return updateGroupMeta(layout, args.group_id, args.patch);
      },
      ({ patch }) => ({ kind: 'group.update', by, data: { patch } }),
    );
    return { group_id: args.group_id, group: redactGroup(outcome.group) as GroupDocView, event };
  });

  router.register('group_delete', async (args) => {
    const by = principalOf(args.by);
    await deps.groupLocks.run(args.group_id, async () => {
      authorizeGroupAction(layout, by, 'group.delete', args.group_id);
      await deps.ledgers.release(args.group_id);
      try {
        await deleteGroup(layout, args.group_id);
      } finally {
        deps.groups.invalidate(args.group_id);
      }
    });
    // The group's ledger is gone with it: tell global subscribers directly.
    deps.fanout.publishGlobal({
      v: 1,
      id: newEventId(),
      ts: formatTs(new Date(), false),
      kind: 'group.delete',
      group_id: args.group_id,
      scope_key: '',
      by,
      data: {},
    });
    return { group_id: args.group_id };
  });

  router.register('group_use', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => {
        authorizeGroupAction(layout, by, 'group.use', args.group_id);
        return useScope(layout, args.group_id, args.path);
      },
      (used) => ({ kind: 'group.set_active_scope', by, scope_key: used.active_scope_key, data: { path: used.path } }),
    );
    return { group_id: args.group_id, active_scope_key: outcome.active_scope_key, event };
  });

  router.register('group_detach_scope', async (args) => {
    const by = principalOf(args.by);
    const { event } = await writeGroup(
      deps,
      args.group_id,
      () => {
        authorizeGroupAction(layout, by, 'group.detach_scope', args.group_id);
        return detachScope(layout, args.group_id, args.scope_key);
      },
      ({ scope_key }) => ({ kind: 'group.detach_scope', by, scope_key, data: { scope_key } }),
    );
    return { group_id: args.group_id, event };
  });

  router.register('group_set_state', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => {
        authorizeGroupAction(layout, by, 'group.set_state', args.group_id);
        return setGroupState(layout, args.group_id, args.state);
      },
      ({ old_state, new_state }) => ({ kind: 'group.set_state', by, data: { old_state, new_state } }),
    );
    return { group_id: args.group_id, state: outcome.new_state, event };
  });

  router.register('group_settings_update', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => {
        authorizeGroupAction(layout, by, 'group.settings', args.group_id);
        return updateGroupSettings(layout, args.group_id, args.patch);
      },
      () => ({ kind: 'group.settings_update', by, data: { patch: args.patch } }),
    );
    return { group_id: args.group_id, settings: { ...outcome.settings }, event };
  });
}

function attachEvent(by: string, result: AttachResult) {
  const { url, label, git_remote } = result.scope;
  return { kind: 'group.attach', by, scope_key: result.scope_key, data: { url, label, git_remote } };
}

/** `attach` to a named group: the foreman or user of that group. */
async function attachToGroup(deps: GroupsOpsDeps, by: string, groupId: string, path: string): Promise<AttachResult> {
  const { outcome } = await writeGroup(
    deps,
    groupId,
    () => {
      authorizeGroupAction(deps.layout, by, 'group.attach', groupId);
      return attachScope(deps.layout, { path, groupId });
    },
    (result) => attachEvent(by, result),
  );
  return outcome;
}

/**
 * `attach` without a group picks the scope's default group or creates one, so it is a
 * registry-level action: user only, like group_create.
 */
async function attachAuto(deps: GroupsOpsDeps, by: string, path: string): Promise<AttachResult> {
  checkPermission(by, 'group.create');
  const result = await deps.groupLocks.run(REGISTRY_LOCK, () => attachScope(deps.layout, { path }));
  await deps.groupLocks.run(result.group_id, async () => {
    deps.groups.invalidate(result.group_id);
    if (result.created) {
      await deps.ledgers.append(result.group_id, { kind: 'group.create', by, data: { title: result.group.title, topic: result.group.topic } });
    }
    await deps.ledgers.append(result.group_id, attachEvent(by, result));
  });
  return result;
}
