import type { Command } from 'commander';
import { HomeLayout, readActiveGroupId } from '@cccc/groups/home';
import { resolveCcccHome } from '@cccc/ipc-protocol/call';
import type { CliClient } from './cli-client.js';
import { cliError, CliErrorCodes } from './cli-error.js';
import { clientFor } from './cli-client.js';
import { reportError } from './output.js';

/** Options every daemon-facing command accepts. */
export interface CommonOptions {
  readonly by?: string;
  readonly json?: boolean;
}

/** Options of commands that act inside one group. */
export interface GroupOptions extends CommonOptions {
  readonly group?: string;
}

export interface CommandContext {
  readonly home: string;
  readonly client: CliClient;
  /** The principal the daemon checks permissions against. */
  readonly by: string;
  readonly json: boolean;
}

export interface GroupContext extends CommandContext {
  readonly groupId: string;
}

export function withCommonOptions(command: Command): Command {
  return command
    .option('--by <principal>', 'act as this principal (default: $CCCC_ACTOR_ID, else "user")')
    .option('--json', 'machine-readable output (the op result as JSON)');
}

export function withGroupOptions(command: Command): Command {
  return withCommonOptions(command.option('--group <group_id>', 'the group (default: the active group, see `cccc use`)'));
}

/** `--by`, else `CCCC_ACTOR_ID` (set for agents the daemon launches), else the human user. */
export function resolveBy(by: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return by?.trim() || env.CCCC_ACTOR_ID?.trim() || 'user';
}

export function commandContext(options: CommonOptions): CommandContext {
  const home = resolveCcccHome();
  return { home, client: clientFor(home), by: resolveBy(options.by), json: Boolean(options.json) };
}

/** `--group`, else the active group of `active.json`; neither is a clear error, never a guess. */
export function groupContext(options: GroupOptions): GroupContext {
  const context = commandContext(options);
  const groupId = options.group?.trim() || readActiveGroupId(new HomeLayout(context.home));
  if (!groupId) {
    throw cliError(CliErrorCodes.noActiveGroup, 'no group given: pass --group <group_id> or set one with `cccc use <group_id>`');
  }
  return { ...context, groupId };
}

/**
 * Wrap a commander action so any thrown error goes through `reportError` (code + message, exit 1).
 * Commander passes the Command last; its options decide whether the error is printed as JSON.
 */
export function guarded<A extends unknown[]>(
  setExit: (code: number) => void,
  body: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await body(...args);
    } catch (error) {
      const command = args[args.length - 1] as Command | undefined;
      const json = Boolean(command?.opts?.().json);
      setExit(reportError(error, { json }));
    }
  };
}
