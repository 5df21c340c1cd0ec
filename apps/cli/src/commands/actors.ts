import type { Command } from 'commander';
import type { ActorPatch, OpArgsInput } from '@cccc/ipc-protocol';
import { splitCommandLine } from '@cccc/groups/home';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { actorStateLabel, formatTable } from '../format.js';
import { collect, parseBoolean, parseKeyValues } from '../option-parsers.js';
import { printJson, printLines } from '../output.js';
import { startProblemLines } from '../start-report.js';

type SetExit = (code: number) => void;

interface ActorFields extends GroupOptions {
  title?: string;
  runtime?: string;
  command?: string;
  arg?: string[];
  submit?: 'enter' | 'newline' | 'none';
  enabled?: boolean;
  env?: string[];
}

/** `cccc actor add|list|update|remove|secrets`. */
export function registerActorCommands(program: Command, setExit: SetExit): void {
  const actor = program.command('actor').description('register, list, change and remove the actors of a group');

  withActorFields(withGroupOptions(actor.command('add [actor_id]').description('register an actor (no id: the daemon assigns <runtime>-N)'))).action(
    guarded(setExit, async (actorId: string | undefined, opts: ActorFields) => {
      const ctx = groupContext(opts);
      const fields = actorFields(opts);
      const args: OpArgsInput<'actor_add'> = { group_id: ctx.groupId, by: ctx.by, ...fields };
      if (actorId) args.actor_id = actorId;
      const result = await ctx.client.call('actor_add', args);
      // actor_add has no `enabled` argument (new actors start enabled), so disabling is a follow-up edit.
      const disabled =
        opts.enabled === false
          ? await ctx.client.call('actor_update', { group_id: ctx.groupId, actor_id: result.actor.id, by: ctx.by, patch: { enabled: false } })
          : undefined;
      if (ctx.json) {
        if (result.start_error) setExit(1);
        return printJson(disabled ? { ...result, actor: disabled.actor, update_event: disabled.event } : result);
      }
      const doc = disabled?.actor ?? result.actor;
      // Added either way; a start that was tried and failed makes the command fail.
      if (result.start_error) setExit(1);
      printLines([
        `added ${doc.id}${doc.title ? ` (${doc.title})` : ''} runtime ${doc.runtime ?? '-'}${doc.enabled === false ? ', disabled' : ''}` +
          (result.running ? ', running' : '') +
          (result.start_error && !result.start_failure ? `; start failed: ${result.start_error}` : ''),
        ...(result.start_failure ? startProblemLines(doc.id, result.start_failure, 'not started') : []),
        ...(result.start_warning ? startProblemLines(doc.id, result.start_warning, 'warning') : []),
      ]);
    }),
  );

  withGroupOptions(actor.command('list').description('list the actors of a group'))
    .option('--unread', 'include unread Mail counts')
    .action(
      guarded(setExit, async (opts: GroupOptions & { unread?: boolean }) => {
        const ctx = groupContext(opts);
        const result = await ctx.client.call('actor_list', { group_id: ctx.groupId, ...(opts.unread ? { include_unread: true } : {}) });
        if (ctx.json) return printJson(result);
        if (result.actors.length === 0) return printLines(['no actors (add one with `cccc actor add`)']);
        // STATE reads at a glance and names its evidence when it is a guess (see actorStateLabel).
        const headers = ['id', 'title', 'role', 'runtime', 'enabled', 'running', 'state', ...(opts.unread ? ['unread'] : [])];
        printLines(
          formatTable(
            headers,
            result.actors.map((a) => [
              a.id,
              a.title,
              a.role,
              a.runtime,
              a.enabled,
              a.running,
              actorStateLabel(a),
              ...(opts.unread ? [a.unread_count ?? 0] : []),
            ]),
          ),
        );
        // Under the table: why an actor is not running after its last start, or what it runs without.
        printLines(
          result.actors.flatMap((a) => [
            ...(a.start_failure ? startProblemLines(a.id, a.start_failure, 'not started') : []),
            ...(a.start_warning ? startProblemLines(a.id, a.start_warning, 'warning') : []),
          ]),
        );
      }),
    );

  withActorFields(withGroupOptions(actor.command('update <actor_id>').description('change an actor'))).action(
    guarded(setExit, async (actorId: string, opts: ActorFields) => {
      const ctx = groupContext(opts);
      const patch: ActorPatch = { ...actorFields(opts), ...(opts.enabled !== undefined ? { enabled: opts.enabled } : {}) };
      if (Object.keys(patch).length === 0) throw cliError(CliErrorCodes.invalidPatch, 'nothing to update: pass at least one field option');
      const result = await ctx.client.call('actor_update', { group_id: ctx.groupId, actor_id: actorId, by: ctx.by, patch });
      if (ctx.json) return printJson(result);
      printLines([`updated ${result.actor.id}: ${Object.keys(patch).join(', ')}`]);
    }),
  );

  withGroupOptions(actor.command('remove <actor_id>').description('remove an actor')).action(
    guarded(setExit, async (actorId: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('actor_remove', { group_id: ctx.groupId, actor_id: actorId, by: ctx.by });
      if (ctx.json) return printJson(result);
      printLines([`removed ${result.actor_id}`]);
    }),
  );

  withGroupOptions(
    actor
      .command('secrets <actor_id>')
      .description("list (no flags) or edit an actor's private env; only key names are ever printed"),
  )
    .option('--set <KEY=VALUE>', 'set a variable (repeatable)', collect, [])
    .option('--unset <KEY>', 'remove a variable (repeatable)', collect, [])
    .option('--clear', 'remove every variable')
    .action(
      guarded(setExit, async (actorId: string, opts: GroupOptions & { set: string[]; unset: string[]; clear?: boolean }) => {
        const ctx = groupContext(opts);
        const base = { group_id: ctx.groupId, actor_id: actorId, by: ctx.by };
        const editing = opts.set.length > 0 || opts.unset.length > 0 || Boolean(opts.clear);
        const result = editing
          ? await ctx.client.call('actor_env_private_update', {
              ...base,
              ...(opts.set.length > 0 ? { set: parseKeyValues(opts.set, '--set') } : {}),
              ...(opts.unset.length > 0 ? { unset: opts.unset } : {}),
              ...(opts.clear ? { clear: true } : {}),
            })
          : await ctx.client.call('actor_env_private_keys', base);
        // The result schema is key names only; print nothing else from it, and never the --set input.
        if (ctx.json) return printJson({ group_id: result.group_id, actor_id: result.actor_id, keys: result.keys });
        printLines(result.keys.length > 0 ? result.keys : [`${result.actor_id}: no private env`]);
      }),
    );
}

function withActorFields(command: Command): Command {
  return command
    .option('--title <title>', 'display title')
    .option('--runtime <runtime>', 'runtime (claude, codex, custom, ...)')
    .option('--command <command>', 'launch command, split shell-style into argv')
    .option('--arg <arg>', 'one argv element, boundaries kept exactly (repeatable; instead of --command)', collect)
    .option('--submit <mode>', 'how a delivered prompt is submitted: enter, newline or none')
    .option('--enabled <bool>', 'desired enabled state (true/false)', parseBoolean)
    .option('--env <KEY=VALUE>', 'plain (non-secret) env variable (repeatable)', collect);
}

/** The fields actor_add and actor_update share; `enabled` is handled by each caller. */
function actorFields(opts: ActorFields): ActorPatch {
  if (opts.command !== undefined && opts.arg !== undefined) throw cliError(CliErrorCodes.invalidCommand, 'use --command or --arg, not both');
  if (opts.submit !== undefined && !['enter', 'newline', 'none'].includes(opts.submit)) {
    throw cliError(CliErrorCodes.invalidRequest, `--submit must be enter, newline or none`);
  }
  const command = opts.arg ?? (opts.command !== undefined ? splitCommandLine(opts.command) : undefined);
  return {
    ...(opts.title !== undefined ? { title: opts.title } : {}),
    ...(opts.runtime !== undefined ? { runtime: opts.runtime } : {}),
    ...(command !== undefined ? { command } : {}),
    ...(opts.submit !== undefined ? { submit: opts.submit } : {}),
    ...(opts.env !== undefined ? { env: parseKeyValues(opts.env, '--env') } : {}),
  };
}
