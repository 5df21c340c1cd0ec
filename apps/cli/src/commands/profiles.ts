import type { Command } from 'commander';
import type { ProfileInput } from '@cccc/ipc-protocol';
import { splitCommandLine } from '@cccc/groups/home';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { commandContext, guarded, withCommonOptions, type CommonOptions } from '../context.js';
import { formatTable } from '../format.js';
import { collect, parseKeyValues, parsePositiveInt } from '../option-parsers.js';
import { printJson, printLines } from '../output.js';

type SetExit = (code: number) => void;

interface UpsertOptions extends CommonOptions {
  id?: string;
  name: string;
  runtime: string;
  runtimeMode?: 'default' | 'acp';
  command?: string;
  arg?: string[];
  submit?: 'enter' | 'newline' | 'none';
  expectedRevision?: number;
}

/** `cccc profile list|show|upsert|delete|secrets`: global actor profiles (§8.5), not group-scoped. */
export function registerProfileCommands(program: Command, setExit: SetExit): void {
  const profile = program.command('profile').description('global reusable actor profiles and their secrets');

  withCommonOptions(profile.command('list').description('list profiles')).action(
    guarded(setExit, async (opts: CommonOptions) => {
      const ctx = commandContext(opts);
      const result = await ctx.client.call('actor_profile_list', { by: ctx.by });
      if (ctx.json) return printJson(result);
      if (result.profiles.length === 0) return printLines(['no profiles']);
      printLines(
        formatTable(
          ['id', 'name', 'runtime', 'used_by'],
          result.profiles.map((p) => [p.id, p.name, p.runtime, p.usage_count]),
        ),
      );
    }),
  );

  withCommonOptions(profile.command('show <profile_id>').description('show a profile and the actors linked to it')).action(
    guarded(setExit, async (profileId: string, opts: CommonOptions) => {
      const ctx = commandContext(opts);
      const result = await ctx.client.call('actor_profile_get', { profile_id: profileId, by: ctx.by });
      if (ctx.json) return printJson(result);
      const p = result.profile;
      const command = Array.isArray(p.command) ? JSON.stringify(p.command) : p.command;
      printLines([
        `id:       ${p.id}`,
        `name:     ${String(p.name ?? '')}`,
        `runtime:  ${String(p.runtime ?? '')}${p.runtime_mode ? ` (${String(p.runtime_mode)})` : ''}`,
        `command:  ${command === undefined ? '-' : String(command)}`,
        `submit:   ${String(p.submit ?? '-')}`,
        `revision: ${String(p.revision ?? '-')}`,
        '',
        result.usage.length > 0 ? 'used by:' : 'used by: nobody',
        ...formatTable(['group_id', 'actor_id', 'actor_title'], result.usage.map((u) => [u.group_id, u.actor_id, u.actor_title]))
          .slice(result.usage.length > 0 ? 0 : Infinity)
          .map((l) => `  ${l}`),
      ]);
    }),
  );

  withCommonOptions(profile.command('upsert').description('create a profile, or replace one with --id'))
    .option('--id <profile_id>', 'the profile to replace (omit to create)')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--runtime <runtime>', 'runtime (claude, codex, custom, ...)')
    .option('--runtime-mode <mode>', 'default or acp')
    .option('--command <command>', 'launch command, split shell-style into argv')
    .option('--arg <arg>', 'one argv element (repeatable; instead of --command)', collect)
    .option('--submit <mode>', 'enter, newline or none')
    .option('--expected-revision <n>', 'fail with profile_revision_conflict unless the stored revision is n', parsePositiveIntOrZero)
    .action(
      guarded(setExit, async (opts: UpsertOptions) => {
        const ctx = commandContext(opts);
        if (opts.command !== undefined && opts.arg !== undefined) throw cliError(CliErrorCodes.invalidCommand, 'use --command or --arg, not both');
        const command = opts.arg ?? (opts.command !== undefined ? splitCommandLine(opts.command) : undefined);
        const input: ProfileInput = {
          name: opts.name,
          runtime: opts.runtime,
          ...(opts.id ? { id: opts.id } : {}),
          ...(opts.runtimeMode ? { runtime_mode: opts.runtimeMode } : {}),
          ...(command !== undefined ? { command } : {}),
          ...(opts.submit ? { submit: opts.submit } : {}),
        };
        const result = await ctx.client.call('actor_profile_upsert', {
          by: ctx.by,
          profile: input,
          ...(opts.expectedRevision !== undefined ? { expected_revision: opts.expectedRevision } : {}),
        });
        if (ctx.json) return printJson(result);
        printLines([`saved profile ${result.profile.id}${result.profile.revision !== undefined ? ` (revision ${String(result.profile.revision)})` : ''}`]);
      }),
    );

  withCommonOptions(profile.command('delete <profile_id>').description('delete a profile'))
    .option('--force-detach', 'convert linked actors to custom first instead of failing with profile_in_use')
    .action(
      guarded(setExit, async (profileId: string, opts: CommonOptions & { forceDetach?: boolean }) => {
        const ctx = commandContext(opts);
        const result = await ctx.client.call('actor_profile_delete', {
          profile_id: profileId,
          by: ctx.by,
          ...(opts.forceDetach ? { force_detach: true } : {}),
        });
        if (ctx.json) return printJson(result);
        printLines([`deleted profile ${result.profile_id}${result.detached_count > 0 ? `, detached ${result.detached_count} actor(s)` : ''}`]);
      }),
    );

  withCommonOptions(
    profile.command('secrets <profile_id>').description('list (no flags) or edit profile secrets; only key names are printed'),
  )
    .option('--set <KEY=VALUE>', 'set a secret (repeatable)', collect, [])
    .option('--unset <KEY>', 'remove a secret (repeatable)', collect, [])
    .option('--clear', 'remove every secret')
    .action(
      guarded(setExit, async (profileId: string, opts: CommonOptions & { set: string[]; unset: string[]; clear?: boolean }) => {
        const ctx = commandContext(opts);
        const editing = opts.set.length > 0 || opts.unset.length > 0 || Boolean(opts.clear);
        const result = editing
          ? await ctx.client.call('actor_profile_secret_update', {
              profile_id: profileId,
              by: ctx.by,
              ...(opts.set.length > 0 ? { set: parseKeyValues(opts.set, '--set') } : {}),
              ...(opts.unset.length > 0 ? { unset: opts.unset } : {}),
              ...(opts.clear ? { clear: true } : {}),
            })
          : await ctx.client.call('actor_profile_secret_keys', { profile_id: profileId, by: ctx.by });
        // Key names only, even in --json: masked previews still leak a value's length and edges.
        if (ctx.json) return printJson({ profile_id: result.profile_id, keys: result.keys });
        printLines(result.keys.length > 0 ? result.keys : [`${result.profile_id}: no secrets`]);
      }),
    );
}

function parsePositiveIntOrZero(value: string): number {
  return value.trim() === '0' ? 0 : parsePositiveInt(value);
}
