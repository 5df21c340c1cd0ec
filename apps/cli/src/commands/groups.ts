import { resolve } from 'node:path';
import type { Command } from 'commander';
import { HomeLayout, writeActiveGroupId } from '@cccc/groups/home';
import type { GroupDoc } from '@cccc/ipc-protocol';
import type { CliClient } from '../cli-client.js';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { commandContext, groupContext, guarded, withCommonOptions, withGroupOptions, type GroupOptions } from '../context.js';
import { formatTable } from '../format.js';
import { printJson, printLines } from '../output.js';
import { registerGroupCopyCommands } from './group-copy.js';

type SetExit = (code: number) => void;

/** `cccc attach`, `cccc groups` and `cccc group create|show|update|delete|use|set-state`. */
export function registerGroupCommands(program: Command, setExit: SetExit): void {
  withCommonOptions(
    program
      .command('attach [path]')
      .description('attach a directory (default: the current one) to a group, creating one when needed, and make that group active')
      .option('--group <group_id>', 'attach to this group instead of the one the daemon selects'),
  ).action(
    guarded(setExit, async (path: string | undefined, opts: GroupOptions) => {
      const ctx = commandContext(opts);
      // The daemon runs with its own cwd, so a relative path is resolved here, where the user typed it.
      const result = await ctx.client.call('attach', {
        path: resolve(path ?? '.'),
        by: ctx.by,
        ...(opts.group ? { group_id: opts.group } : {}),
      });
      // As the reference CLI does: the group just attached becomes the active one, so the next
      // command (`cccc actor add …`) needs no --group.
      writeActiveGroupId(new HomeLayout(ctx.home), result.group_id);
      if (ctx.json) return printJson(result);
      printLines([
        `attached ${resolve(path ?? '.')} to ${result.group_id}${result.title ? ` (${result.title})` : ''}, scope ${result.scope_key}`,
        `active group: ${result.group_id}`,
      ]);
    }),
  );

  withCommonOptions(program.command('groups').description('list groups')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = commandContext(opts);
      const result = await ctx.client.call('groups', {});
      if (ctx.json) return printJson(result);
      if (result.groups.length === 0) return printLines(['no groups (create one with `cccc group create` or `cccc attach`)']);
      const counts = await Promise.all(result.groups.map((g) => actorCount(ctx.client, g)));
      printLines(
        formatTable(
          ['group_id', 'title', 'state', 'actors'],
          result.groups.map((g, i) => [g.group_id, g.title, g.state, counts[i]]),
        ),
      );
    }),
  );

  const group = program.command('group').description('create, inspect and change one group');
  registerGroupCopyCommands(group, setExit);

  withCommonOptions(group.command('create').description('create an empty group'))
    .option('--title <title>', 'group title')
    .option('--topic <topic>', 'group topic')
    .action(
      guarded(setExit, async (opts: GroupOptions & { title?: string; topic?: string }) => {
        const ctx = commandContext(opts);
        const result = await ctx.client.call('group_create', { title: opts.title, topic: opts.topic, by: ctx.by });
        if (ctx.json) return printJson(result);
        printLines([`created ${result.group_id}${result.title ? ` (${result.title})` : ''}`]);
      }),
    );

  withGroupOptions(group.command('show [group_id]').description('show a group (default: --group / the active group)')).action(
    guarded(setExit, async (groupId: string | undefined, opts: GroupOptions) => {
      const ctx = groupContext({ ...opts, group: groupId ?? opts.group });
      const result = await ctx.client.call('group_show', { group_id: ctx.groupId });
      if (ctx.json) return printJson(result);
      printLines(describeGroup(result.group));
    }),
  );

  withGroupOptions(group.command('update').description('change the title or topic of a group'))
    .option('--title <title>', 'new title')
    .option('--topic <topic>', 'new topic')
    .action(
      guarded(setExit, async (opts: GroupOptions & { title?: string; topic?: string }) => {
        const ctx = groupContext(opts);
        if (opts.title === undefined && opts.topic === undefined) throw cliError(CliErrorCodes.invalidPatch, 'nothing to update: pass --title and/or --topic');
        const patch = { ...(opts.title !== undefined ? { title: opts.title } : {}), ...(opts.topic !== undefined ? { topic: opts.topic } : {}) };
        const result = await ctx.client.call('group_update', { group_id: ctx.groupId, by: ctx.by, patch });
        if (ctx.json) return printJson(result);
        printLines([`updated ${result.group_id}`, ...describeGroup(result.group)]);
      }),
    );

  withGroupOptions(group.command('delete').description('delete a group and everything it owns (needs --confirm)'))
    .option('--confirm', 'really delete')
    .action(
      guarded(setExit, async (opts: GroupOptions & { confirm?: boolean }) => {
        const ctx = groupContext(opts);
        // Deleting retires the ledger and every actor: an explicit flag, as the reference CLI asks.
        if (!opts.confirm) throw cliError(CliErrorCodes.confirmationRequired, `deleting ${ctx.groupId} needs --confirm`);
        const result = await ctx.client.call('group_delete', { group_id: ctx.groupId, by: ctx.by });
        if (ctx.json) return printJson(result);
        printLines([`deleted ${result.group_id}`]);
      }),
    );

  withGroupOptions(group.command('use <path>').description('make an attached directory the active scope of a group')).action(
    guarded(setExit, async (path: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('group_use', { group_id: ctx.groupId, path: resolve(path), by: ctx.by });
      if (ctx.json) return printJson(result);
      printLines([`${result.group_id}: active scope ${result.active_scope_key}`]);
    }),
  );

  withGroupOptions(
    group
      .command('set-state <state>')
      .description('set the group state: active, idle, paused (or stopped, which stops its runtimes)'),
  ).action(
    guarded(setExit, async (state: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      // IPC v1 cannot set `stopped`; the spec lets a CLI alias it to group_stop (§8.3).
      if (state === 'stopped') {
        const result = await ctx.client.call('group_stop', { group_id: ctx.groupId, by: ctx.by });
        if (ctx.json) return printJson(result);
        return printLines([`${result.group_id}: stopped`]);
      }
      if (state !== 'active' && state !== 'idle' && state !== 'paused') {
        throw cliError(CliErrorCodes.invalidState, `unknown state "${state}" (active, idle, paused or stopped)`);
      }
      const result = await ctx.client.call('group_set_state', { group_id: ctx.groupId, state, by: ctx.by });
      if (ctx.json) return printJson(result);
      printLines([`${result.group_id}: ${result.state}`]);
    }),
  );
}

/**
 * Registry summaries carry no actor count (§8.3), so the table asks each group; a group that
 * cannot answer (e.g. corrupt) shows "-" rather than failing the whole listing.
 */
async function actorCount(client: CliClient, summary: Record<string, unknown>): Promise<number | undefined> {
  const listed = summary.actors ?? summary.actor_count;
  if (Array.isArray(listed)) return listed.length;
  if (typeof listed === 'number') return listed;
  try {
    return (await client.call('actor_list', { group_id: String(summary.group_id) })).actors.length;
  } catch {
    return undefined;
  }
}

function describeGroup(group: GroupDoc): string[] {
  const lines = [
    `group_id:  ${group.group_id}`,
    `title:     ${group.title ?? ''}`,
    `topic:     ${group.topic ?? ''}`,
    `state:     ${group.state ?? ''}${group.running ? ' (running)' : ''}`,
    `scope:     ${group.active_scope_key ?? '-'}`,
  ];
  const scopes = group.scopes ?? [];
  if (scopes.length > 0) {
    lines.push('', 'scopes:', ...formatTable(['scope_key', 'url', 'label'], scopes.map((s) => [s.scope_key, s.url, s.label])).map((l) => `  ${l}`));
  }
  const actors = group.actors ?? [];
  lines.push('', actors.length > 0 ? 'actors:' : 'actors: none');
  if (actors.length > 0) {
    lines.push(
      ...formatTable(['id', 'title', 'runtime', 'enabled'], actors.map((a) => [a.id, a.title, a.runtime, a.enabled ?? true])).map((l) => `  ${l}`),
    );
  }
  return lines;
}
