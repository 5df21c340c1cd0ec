import { copyFileSync, constants, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { commandContext, groupContext, guarded, withCommonOptions, withGroupOptions, type GroupOptions } from '../context.js';
import { printJson, printLines } from '../output.js';

type SetExit = (code: number) => void;

/**
 * `cccc group export [group_id] [--out file]` and `cccc group import <file> [--preview]`
 * (§8.20). Export goes through group_copy_export_file (the daemon is local), then the package
 * is copied to --out (default: its own name in the current directory), never overwriting.
 */
export function registerGroupCopyCommands(group: Command, setExit: SetExit): void {
  withGroupOptions(group.command('export [group_id]').description('export a group (state only, secrets scrubbed) as a zip package'))
    .option('--out <file>', 'where to write the package (default: ./<package name>)')
    .action(
      guarded(setExit, async (groupId: string | undefined, opts: GroupOptions & { out?: string }) => {
        const ctx = groupContext({ ...opts, group: groupId ?? opts.group });
        const result = await ctx.client.call('group_copy_export_file', { group_id: ctx.groupId, by: ctx.by });
        const out = resolve(opts.out ?? result.filename);
        if (existsSync(out)) throw cliError(CliErrorCodes.invalidRequest, `refusing to overwrite ${out}`, { path: out });
        copyFileSync(result.package_path, out, constants.COPYFILE_EXCL);
        if (ctx.json) return printJson({ ...result, out });
        printLines([`exported ${ctx.groupId} to ${out} (${result.package_size_bytes} bytes; group state only, no secrets)`]);
      }),
    );

  withCommonOptions(group.command('import <file>').description('import a group copy package as a new, stopped group'))
    .option('--preview', 'only validate the package and show what an import would do')
    .option('--workspace-root <dir>', 'remap the active workspace root to this directory')
    .option('--title <title>', 'title of the imported group')
    .action(
      guarded(setExit, async (file: string, opts: GroupOptions & { preview?: boolean; workspaceRoot?: string; title?: string }) => {
        const ctx = commandContext(opts);
        const package_path = resolve(file);
        if (opts.preview) {
          const { preview } = await ctx.client.call('group_copy_preview_import', { package_path, by: ctx.by });
          if (ctx.json) return printJson({ preview });
          return printLines([
            `package of ${preview.source_group_id} (${preview.source_title}), ${preview.actor_count} actor(s): ${preview.actors.map((a) => String(a.id)).join(', ') || '-'}`,
            `workspace root: ${preview.source_workspace_root || '-'}${preview.source_workspace_root ? (preview.workspace_root_exists ? ' (exists here)' : ' (missing here)') : ''}`,
            `group id conflict: ${preview.group_id_conflict ? 'yes (a new id will be allocated)' : 'no'}`,
            ...(preview.warnings ?? []).map((w) => `warning: ${w}`),
          ]);
        }
        const result = await ctx.client.call('group_copy_import', {
          package_path,
          by: ctx.by,
          ...(opts.workspaceRoot ? { workspace_root: resolve(opts.workspaceRoot) } : {}),
          ...(opts.title ? { title: opts.title } : {}),
        });
        if (ctx.json) return printJson(result);
        printLines([
          `imported ${result.source_group_id} as ${result.group_id}${result.group_id_conflict ? ' (source id taken here: new id)' : ''}, stopped`,
          `workspace root: ${result.workspace_root || '-'}`,
        ]);
      }),
    );
}
