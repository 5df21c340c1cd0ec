import { closeSync, constants, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { authorizeGroupAction, checkPermission, principalOf, type HomeLayout } from '@cccc/groups';
import { ErrorCodes, IpcError, LOG_COMPONENTS, type OpRouter } from '@cccc/ipc-protocol';
import { daemonPaths } from '@cccc/ipc-protocol/node';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import { tailFile, tailLineCount } from '../log-tail.js';
import { requireDeveloperMode } from './debug.js';

export interface DebugLogsOpsDeps {
  readonly layout: HomeLayout;
}

/** The file a component's log lives in (the reference's layout); im logs are per group. */
function componentPath(layout: HomeLayout, component: string, groupId: string): string {
  const name = component.trim().toLowerCase();
  if (!(LOG_COMPONENTS as readonly string[]).includes(name)) {
    throw daemonError(DaemonErrorCodes.invalidComponent, `unknown log component: ${component}`, { component, allowed: [...LOG_COMPONENTS] });
  }
  if (name === 'daemon' || name === 'ccccd') return daemonPaths(layout.home).log;
  if (name === 'web') return join(daemonPaths(layout.home).dir, 'cccc-web.log');
  if (!groupId) throw new IpcError(ErrorCodes.missingGroupId, 'im logs are per group: group_id is required', { component });
  return join(layout.groupDir(groupId), 'state', 'im_bridge.log');
}

/** Open failures other than a missing file answer `log_unreadable` (a symlink gives ELOOP). */
function unreadable(path: string, err: unknown): never {
  throw daemonError(DaemonErrorCodes.logUnreadable, `cannot open log ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, { path });
}

/** Developer mode first, then who asks: the user, or the group's foreman when group_id is given. */
function authorize(layout: HomeLayout, op: string, by: string | undefined, groupId: string | undefined): void {
  requireDeveloperMode(layout, op);
  if (groupId) authorizeGroupAction(layout, principalOf(by), 'debug.read', groupId);
  else checkPermission(principalOf(by), 'debug.read');
}

/** §8.11 debug_tail_logs / debug_clear_logs over the daemon's own log and its companions'. */
export function registerDebugLogsOps(router: OpRouter, deps: DebugLogsOpsDeps): void {
  const { layout } = deps;
  router.register('debug_tail_logs', (args) => {
    authorize(layout, 'debug_tail_logs', args.by, args.group_id);
    const groupId = args.group_id ?? '';
    const path = componentPath(layout, args.component, groupId);
    let tail;
    try {
      tail = tailFile(path, tailLineCount(args.lines));
    } catch (err) {
      unreadable(path, err);
    }
    const { lines, truncated } = tail;
    return { component: args.component.trim().toLowerCase(), group_id: groupId, path, lines, truncated };
  });
  router.register('debug_clear_logs', (args) => {
    authorize(layout, 'debug_clear_logs', args.by, args.group_id);
    const groupId = args.group_id ?? '';
    const path = componentPath(layout, args.component, groupId);
    // Truncate in place: the daemon's logger appends to the same file, so it keeps working.
    // A missing file is already clear; a symlink is refused, never followed.
    try {
      const fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
      try {
        ftruncateSync(fd, 0);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') unreadable(path, err);
    }
    return { component: args.component.trim().toLowerCase(), group_id: groupId, path, cleared: true as const };
  });
}
