import { checkPermission, exportGroupCopy, exportGroupCopyFile, importGroupCopy, loadGroup, previewGroupCopy, principalOf } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import { formatTs, newEventId } from '@cccc/ledger';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { EventFanout } from '../kernel/event-fanout.js';
import { DAEMON_VERSION } from '../version.js';

export type GroupCopyOpsDeps = StoreDeps & {
  readonly fanout: Pick<EventFanout, 'publishGlobal'>;
};

/** Same key as attach/group_create use for registry-level writes. */
const REGISTRY_LOCK = ' registry';

/**
 * §8.20 group_copy_*: thin handlers over @cccc/groups' copy packages. User only (a package holds
 * the whole group's history). Import is serialized with other registry writes and announced to
 * global subscribers; it appends nothing to the imported ledger, which arrives as exported.
 */
export function registerGroupCopyOps(router: OpRouter, deps: GroupCopyOpsDeps): void {
  const { layout } = deps;
  const options = { ccccVersion: DAEMON_VERSION };

  router.register('group_copy_export', async (args) => {
    checkPermission(principalOf(args.by), 'settings.global');
    return exportGroupCopy(layout, args.group_id, options);
  });

  router.register('group_copy_export_file', async (args) => {
    checkPermission(principalOf(args.by), 'settings.global');
    return exportGroupCopyFile(layout, args.group_id, options);
  });

  router.register('group_copy_preview_import', async (args) => {
    checkPermission(principalOf(args.by), 'group.create');
    return previewGroupCopy(layout, args);
  });

  router.register('group_copy_import', async (args) => {
    const by = principalOf(args.by);
    checkPermission(by, 'group.create');
    const result = await deps.groupLocks.run(REGISTRY_LOCK, () => importGroupCopy(layout, args));
    deps.groups.invalidate(result.group_id);
    const group = loadGroup(layout, result.group_id);
    deps.fanout.publishGlobal({
      v: 1,
      id: newEventId(),
      ts: formatTs(new Date(), false),
      kind: 'group.create',
      group_id: result.group_id,
      scope_key: result.active_scope_key,
      by,
      data: { title: group.title, topic: group.topic },
    });
    return result;
  });
}
