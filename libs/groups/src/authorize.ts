import { loadGroup } from './group-store.js';
import type { HomeLayout } from './home-layout.js';
import { checkPermission, type PermissionAction, type PermissionContext } from './permissions.js';
import type { GroupDoc } from './schemas/group.js';
import type { ActorRole } from './actors.js';

/**
 * The IO half of a permission check for group-scoped ops whose domain functions take no `by`
 * (group update/settings/state/attach/detach/use/delete, ...): load the group, decide with
 * the pure `checkPermission`, and hand the loaded document back (`group_not_found` first,
 * then `permission_denied`).
 */
export function authorizeGroupAction(
  layout: HomeLayout,
  by: string | undefined,
  action: PermissionAction,
  groupId: string,
  context: Omit<PermissionContext, 'actors'> = {},
): { group: GroupDoc; role: 'user' | ActorRole } {
  const group = loadGroup(layout, groupId);
  const transcriptVisibility = group.terminal_transcript?.visibility;
  const role = checkPermission(by, action, { transcriptVisibility, ...context, actors: group.actors });
  return { group, role };
}
