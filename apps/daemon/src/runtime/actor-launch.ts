import { IpcError } from '@cccc/ipc-protocol';
import { GroupErrorCodes, readActorPrivateEnvForLaunch, type ActorDoc, type GroupDoc, type HomeLayout } from '@cccc/groups';
import { assertLaunchCwd, composeLaunch, LaunchError, type LaunchCommand, type LaunchContributor } from '@cccc/pty-runtime';
import { hookLaunchContributor, type HookContributorOptions } from './hook-contributor.js';
import type { CliLauncher } from './cli-launcher.js';
import { mcpLaunchContributor } from './mcp-contributor.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';

/**
 * Per-launch additions (MCP wiring, then the state hooks of this launch when planned), in order.
 * Without a CLI launcher there is no `cccc` for the agent to run, so neither is added.
 */
function launchContributors(cli: CliLauncher | undefined, hooks?: HookContributorOptions): LaunchContributor[] {
  const contributors = cli ? [mcpLaunchContributor(cli)] : [];
  return hooks ? [...contributors, hookLaunchContributor(hooks)] : contributors;
}

/**
 * The directory an actor runs in: its `default_scope_key` scope when set (which must be
 * attached), else the group's active scope. Errors are the spec's codes, thrown before any write.
 */
export function actorCwd(group: GroupDoc, actor: ActorDoc): string {
  const key = actor.default_scope_key || group.active_scope_key;
  if (!key) {
    throw daemonError(DaemonErrorCodes.missingProjectRoot, `actor ${actor.id} has no scope to run in; attach a directory to ${group.group_id} first`, {
      actor_id: actor.id,
    });
  }
  const scope = group.scopes.find((s) => s.scope_key === key);
  if (!scope || !scope.url) {
    throw new IpcError(GroupErrorCodes.scopeNotAttached, `scope ${key} of actor ${actor.id} is not attached to ${group.group_id}`, { actor_id: actor.id, scope_key: key });
  }
  return scope.url;
}

/** argv/env/cwd for one actor's PTY: runtime catalog + actor.command, env layers incl. private env. */
export function actorLaunch(
  layout: HomeLayout,
  group: GroupDoc,
  actor: ActorDoc,
  daemonEnv: NodeJS.ProcessEnv,
  cli: CliLauncher | undefined,
  hooks?: HookContributorOptions,
): LaunchCommand {
  const cwd = actorCwd(group, actor);
  try {
    assertLaunchCwd(cwd);
    return composeLaunch({
      runtime: actor.runtime,
      command: actor.command,
      cwd,
      daemonEnv: daemonEnv as Record<string, string>,
      actorEnv: actor.env,
      privateEnv: readActorPrivateEnvForLaunch(layout, group.group_id, actor.id),
      home: layout.home,
      groupId: group.group_id,
      actorId: actor.id,
    }, launchContributors(cli, hooks));
  } catch (err) {
    if (err instanceof LaunchError) {
      const code = err.code === 'scope_missing' ? 'missing_project_root' : err.code;
      throw new IpcError(code, err.message, { actor_id: actor.id, cwd });
    }
    throw err;
  }
}
