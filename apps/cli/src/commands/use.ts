import type { Command } from 'commander';
import { HomeLayout, readActiveGroupId, writeActiveGroupId } from '@cccc/groups/home';
import { commandContext, guarded, withCommonOptions, type CommonOptions } from '../context.js';
import { printJson, printLines } from '../output.js';

/** `cccc use [group_id]`: set (or show) the CLI's active group, kept in `<CCCC_HOME>/active.json`. */
export function registerUseCommand(program: Command, setExit: (code: number) => void): void {
  withCommonOptions(
    program.command('use [group_id]').description('set the active group used when --group is omitted (no id: show it)'),
  ).action(
    guarded(setExit, async (groupId: string | undefined, opts: CommonOptions) => {
      const ctx = commandContext(opts);
      const layout = new HomeLayout(ctx.home);
      if (!groupId) {
        const active = readActiveGroupId(layout);
        if (ctx.json) return printJson({ active_group_id: active || null });
        return printLines([active ? `active group: ${active}` : 'no active group (set one with `cccc use <group_id>`)']);
      }
      // Ask the daemon first so a typo never becomes the default target of every later command.
      const { group } = await ctx.client.call('group_show', { group_id: groupId });
      writeActiveGroupId(layout, group.group_id);
      if (ctx.json) return printJson({ active_group_id: group.group_id, group });
      printLines([`active group: ${group.group_id}${group.title ? ` (${group.title})` : ''}`]);
    }),
  );
}
