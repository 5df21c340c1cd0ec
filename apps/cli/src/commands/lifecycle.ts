import type { Command } from 'commander';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { printJson, printLines } from '../output.js';
import { groupStartLines, startProblemLines } from '../start-report.js';

type SetExit = (code: number) => void;

/** The `actor` / `group` command registered by actors.ts / groups.ts, or a new one. */
function parent(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

/** `cccc actor start|stop|restart <actor>` and `cccc group start|stop` (§8.3, §8.4). */
export function registerLifecycleCommands(program: Command, setExit: SetExit): void {
  const actor = parent(program, 'actor', 'the actors of a group');
  const verbs = [
    ['start', 'actor_start', 'enable and start an actor'],
    ['stop', 'actor_stop', 'stop and disable an actor'],
    ['restart', 'actor_restart', "restart an actor's runtime session"],
  ] as const;
  for (const [verb, op, description] of verbs) {
    withGroupOptions(actor.command(`${verb} <actor_id>`).description(description)).action(
      guarded(setExit, async (actorId: string, opts: GroupOptions) => {
        const ctx = groupContext(opts);
        // A start that did not run is a daemon error; reportError prints its reason and output.
        const result = await ctx.client.call(op, { group_id: ctx.groupId, actor_id: actorId, by: ctx.by });
        if (ctx.json) return printJson(result);
        const warning = 'start_warning' in result && result.start_warning ? startProblemLines(actorId, result.start_warning, 'warning') : [];
        printLines([`${result.event.kind} ${actorId}${result.actor.enabled === false ? ' (disabled)' : ''}`, ...warning]);
      }),
    );
  }

  const group = parent(program, 'group', 'one group');
  withGroupOptions(group.command('start').description('run every enabled actor of the group')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('group_start', { group_id: ctx.groupId, by: ctx.by });
      // The group runs either way; an actor that did not start makes the command fail.
      if ((result.failed ?? []).length > 0) setExit(1);
      if (ctx.json) return printJson(result);
      printLines(groupStartLines(ctx.groupId, result.started, result.start_results));
    }),
  );
  withGroupOptions(group.command('stop').description("stop the group's runtimes (actors keep their enabled state)")).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('group_stop', { group_id: ctx.groupId, by: ctx.by });
      if (ctx.json) return printJson(result);
      printLines([`stopped ${ctx.groupId}: ${result.stopped.join(', ') || 'nothing was running'}`]);
    }),
  );
}
