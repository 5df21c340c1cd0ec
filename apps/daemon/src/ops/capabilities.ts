import { principal, type CapabilityService, type GroupView } from '@cccc/capabilities';
import { effectiveRole, isVisibleActor, listGroups, loadProfile, updateActor } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import type { StoreDeps } from '../kernel/store-deps.js';
import { writeGroup } from './group-write.js';

export type CapabilitiesOpsDeps = Pick<StoreDeps, 'groups' | 'layout' | 'ledgers' | 'groupLocks'> & { readonly capabilities: CapabilityService };

/**
 * §8.3 capability_* ops: the capabilities library owns the domain; these handlers only read the
 * group's actors (one cached group.yaml snapshot, no lifecycle lock, so `capability_state`
 * with view=mcp_catalog never waits on an actor start) and hand the request over.
 */
export function registerCapabilitiesOps(router: OpRouter, deps: CapabilitiesOpsDeps): void {
  const { capabilities: caps } = deps;

  /** A linked profile's autoload list; an unreadable profile contributes nothing. */
  const profileOf = (profileId: string | undefined) => {
    if (!profileId) return {};
    try {
      const profile = loadProfile(deps.layout, profileId);
      const autoload = profile.capability_defaults?.autoload_capabilities ?? [];
      return { profile: { id: profileId, ...(profile.name ? { name: profile.name } : {}), autoload } };
    } catch {
      return {};
    }
  };

  const groupView = (groupId: string): GroupView => {
    const doc = deps.groups.get(groupId);
    const actors = doc.actors.filter(isVisibleActor);
    return {
      group_id: groupId,
      actors: actors.map((a) => ({
        id: a.id,
        ...(a.title ? { title: a.title } : {}),
        role: effectiveRole(actors, a.id) ?? 'peer',
        capability_autoload: a.capability_autoload ?? [],
        capability_hidden: a.capability_hidden ?? [],
        ...profileOf(a.profile_id),
      })),
    };
  };

  router.register('capability_overview', (args) => caps.overview(args));
  router.register('capability_search', (args) => caps.search(args, groupView(args.group_id)));
  router.register('capability_enable', (args) => caps.enable(args, groupView(args.group_id)));
  router.register('capability_block', (args) => caps.block(args, groupView(args.group_id)));
  router.register('capability_state', (args) => caps.state(args, groupView(args.group_id)));
  router.register('capability_visibility', (args) => caps.visibility(args, groupView(args.group_id)));
  router.register('capability_import', (args) => caps.import(args, groupView(args.group_id)));
  router.register('capability_allowlist_get', () => caps.allowlistGet());
  router.register('capability_allowlist_validate', (args) => caps.allowlistValidate(args));
  router.register('capability_allowlist_update', (args) => caps.allowlistUpdate(args));
  router.register('capability_allowlist_reset', (args) => caps.allowlistReset(args));
  router.register('capability_install_target', (args) => caps.installTarget(args, groupView(args.group_id)));
  // After the capability state is committed, actors stop autoloading what was removed (group.yaml,
  // one actor.update event each): the current group on uninstall, every group on source_delete.
  // The capability op already authorized the caller, so the actor write runs with the user's
  // rights and its event names the caller.
  const dropAutoload = async (groupId: string, ids: readonly string[], by: string): Promise<number> => {
    let removed = 0;
    for (const actor of deps.groups.get(groupId).actors) {
      const autoload = actor.capability_autoload ?? [];
      if (!autoload.some((id) => ids.includes(id))) continue;
      const patch = { capability_autoload: autoload.filter((id) => !ids.includes(id)) };
      await writeGroup(
        deps,
        groupId,
        () => updateActor(deps.layout, 'user', groupId, actor.id, patch),
        (outcome) => ({ kind: 'actor.update', by, data: { actor_id: actor.id, patch: outcome.patch } }),
      );
      removed += 1;
    }
    return removed;
  };

  router.register('capability_uninstall', async (args) => {
    const result = await caps.uninstall(args, groupView(args.group_id));
    const removed = await dropAutoload(args.group_id, [args.capability_id], principal(args.by));
    return { ...result, removed_actor_autoload: removed, refresh_required: result.refresh_required || removed > 0 };
  });
  router.register('capability_source_delete', async (args) => {
    const result = await caps.sourceDelete(args, groupView(args.group_id));
    let removed = 0;
    if (result.removed_capability_ids.length > 0) {
      for (const { group_id } of listGroups(deps.layout)) removed += await dropAutoload(group_id, result.removed_capability_ids, principal(args.by));
    }
    return { ...result, removed_actor_autoload: removed };
  });
  router.register('capability_tool_call', (args) => caps.toolCall(args, groupView(args.group_id)));
}
