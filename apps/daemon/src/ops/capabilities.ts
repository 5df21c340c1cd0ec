import type { CapabilityService, GroupView } from '@cccc/capabilities';
import { effectiveRole, isVisibleActor } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import type { StoreDeps } from '../kernel/store-deps.js';

export type CapabilitiesOpsDeps = Pick<StoreDeps, 'groups'> & { readonly capabilities: CapabilityService };

/**
 * §8.3 capability_* ops: the capabilities library owns the domain; these handlers only read the
 * group's actors (one cached group.yaml snapshot, no lifecycle lock, so `capability_state`
 * with view=mcp_catalog never waits on an actor start) and hand the request over.
 */
export function registerCapabilitiesOps(router: OpRouter, deps: CapabilitiesOpsDeps): void {
  const { capabilities: caps } = deps;

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
  router.register('capability_uninstall', (args) => caps.uninstall(args, groupView(args.group_id)));
  router.register('capability_source_delete', (args) => caps.sourceDelete(args, groupView(args.group_id)));
  router.register('capability_tool_call', (args) => caps.toolCall(args, groupView(args.group_id)));
}
