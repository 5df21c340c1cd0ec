import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { OpResult } from '@cccc/ipc-protocol';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { commandContext, groupContext, guarded, withCommonOptions, withGroupOptions, type CommonOptions, type GroupOptions } from '../context.js';
import { formatTable } from '../format.js';
import { parsePositiveInt } from '../option-parsers.js';
import { printJson, printLines } from '../output.js';

type SetExit = (code: number) => void;
type Scope = 'group' | 'actor' | 'session';

interface ListOptions extends CommonOptions {
  query?: string;
  indexed?: boolean;
}
interface SearchOptions extends GroupOptions {
  kind?: 'mcp_toolpack' | 'skill';
  source?: string;
  local?: boolean;
  limit?: number;
}
interface BindOptions extends GroupOptions {
  scope?: Scope;
  actor?: string;
  ttl?: number;
  reason?: string;
  cleanup?: boolean;
}
interface BlockOptions extends GroupOptions {
  scope?: 'group' | 'global';
  ttl?: number;
  reason?: string;
  unblock?: boolean;
}
interface StateOptions extends GroupOptions {
  actor?: string;
}
interface ImportOptions extends GroupOptions {
  dryRun?: boolean;
  enable?: boolean;
  scope?: Scope;
  actor?: string;
}

const SCOPES = ['group', 'actor', 'session'];

function scopeOf(value: string): Scope {
  if (!SCOPES.includes(value)) throw cliError(CliErrorCodes.invalidRequest, `--scope must be group, actor or session, not ${value}`);
  return value as Scope;
}

/** One line per enable result; a refused enable (blocked / failed) also sets exit code 1. */
function reportEnable(result: OpResult<'capability_enable'>, setExit: SetExit): string[] {
  const refused = result.state === 'blocked' || result.state === 'failed';
  if (refused) setExit(1);
  const tail = [result.reason, result.refresh_required ? 'agents relist their tools' : undefined].filter(Boolean).join('; ');
  return [`${result.capability_id} (${result.scope}, ${result.actor_id}): ${result.state}${tail ? ` — ${tail}` : ''}`];
}

/** `cccc capability list|search|enable|disable|block|state|import` (§8.3 capability ops). */
export function registerCapabilityCommands(program: Command, setExit: SetExit): void {
  const cap = program.command('capability').description('capability packs, skills and external MCP servers each agent has');

  withCommonOptions(cap.command('list').description('the capability library (all sources)'))
    .option('--query <text>', 'only records matching these words')
    .option('--no-indexed', 'hide records the policy keeps indexed')
    .action(
      guarded(setExit, async (opts: ListOptions) => {
        const ctx = commandContext(opts);
        const result = await ctx.client.call('capability_overview', { ...(opts.query ? { query: opts.query } : {}), include_indexed: opts.indexed !== false });
        if (ctx.json) return printJson(result);
        printLines([
          ...formatTable(
            ['capability_id', 'kind', 'level', 'enable', 'blocked', 'name'],
            result.items.map((i) => [i.capability_id, i.kind, i.policy_level, i.enable_supported ? 'yes' : 'no', i.blocked_global ? 'global' : '', i.name]),
          ),
          `revision ${result.allowlist_revision}`,
        ]);
      }),
    );

  withGroupOptions(cap.command('search [query]').description('search the catalog for this group (local first, then remote sources)'))
    .option('--kind <kind>', 'mcp_toolpack or skill')
    .option('--source <source_id>', 'only this source')
    .option('--local', 'do not ask remote sources')
    .option('--limit <n>', 'at most n results', parsePositiveInt)
    .action(
      guarded(setExit, async (query: string | undefined, opts: SearchOptions) => {
        const ctx = groupContext(opts);
        const result = await ctx.client.call('capability_search', {
          group_id: ctx.groupId,
          by: ctx.by,
          ...(query ? { query } : {}),
          ...(opts.kind ? { kind: opts.kind } : {}),
          ...(opts.source ? { source_id: opts.source } : {}),
          ...(opts.local ? { include_external: false } : {}),
          ...(opts.limit ? { limit: opts.limit } : {}),
        });
        if (ctx.json) return printJson(result);
        const d = result.search_diagnostics;
        printLines([
          ...(result.items.length === 0
            ? ['no matches']
            : formatTable(['capability_id', 'kind', 'hint', 'source', 'name'], result.items.map((i) => [i.capability_id, i.kind, i.enable_hint ?? '', i.source_id, i.name]))),
          ...(d?.remote_error ? [`remote: ${d.remote_error}`] : []),
          ...(d?.remote_added ? [`remote: ${d.remote_added} new record(s) cached`] : []),
        ]);
      }),
    );

  const bindCommand = (name: string, description: string, enabled: boolean) =>
    withGroupOptions(cap.command(`${name} <capability_id>`).description(description))
      .option('--scope <scope>', 'group, actor or session (default session)', scopeOf)
      .option('--actor <actor_id>', 'the actor (default: the caller)')
      .option('--ttl <seconds>', 'session scope: seconds until it lapses', parsePositiveInt)
      .option('--reason <text>', 'short audit reason')
      .option('--cleanup', 'disable: also remove the cached server when nothing else binds it')
      .action(
        guarded(setExit, async (capabilityId: string, opts: BindOptions) => {
          const ctx = groupContext(opts);
          const result = await ctx.client.call('capability_enable', {
            group_id: ctx.groupId,
            capability_id: capabilityId,
            by: ctx.by,
            enabled,
            ...(opts.scope ? { scope: opts.scope } : {}),
            ...(opts.actor ? { actor_id: opts.actor } : {}),
            ...(opts.ttl ? { ttl_seconds: opts.ttl } : {}),
            ...(opts.reason ? { reason: opts.reason } : {}),
            ...(opts.cleanup ? { cleanup: true } : {}),
          });
          if (ctx.json) {
            if (result.state === 'blocked' || result.state === 'failed') setExit(1);
            return printJson(result);
          }
          printLines(reportEnable(result, setExit));
        }),
      );
  bindCommand('enable', 'enable a capability for the group, an actor or a session', true);
  bindCommand('disable', 'remove a capability binding at one scope', false);

  withGroupOptions(cap.command('block <capability_id>').description('block a capability for the group (foreman/user) or everywhere (user)'))
    .option('--scope <scope>', 'group or global (default group)')
    .option('--ttl <seconds>', 'seconds until the block lapses', parsePositiveInt)
    .option('--reason <text>', 'why')
    .option('--unblock', 'lift the block instead')
    .action(
      guarded(setExit, async (capabilityId: string, opts: BlockOptions) => {
        const ctx = groupContext(opts);
        if (opts.scope && opts.scope !== 'group' && opts.scope !== 'global') throw cliError(CliErrorCodes.invalidRequest, `--scope must be group or global, not ${opts.scope}`);
        const result = await ctx.client.call('capability_block', {
          group_id: ctx.groupId,
          capability_id: capabilityId,
          by: ctx.by,
          blocked: !opts.unblock,
          ...(opts.scope ? { scope: opts.scope } : {}),
          ...(opts.ttl ? { ttl_seconds: opts.ttl } : {}),
          ...(opts.reason ? { reason: opts.reason } : {}),
        });
        if (ctx.json) return printJson(result);
        printLines([`${result.capability_id} (${result.scope}): ${result.state}${result.removed_bindings ? `, ${result.removed_bindings} binding(s) revoked` : ''}`]);
      }),
    );

  withGroupOptions(cap.command('state').description("an actor's effective capabilities and visible MCP tools"))
    .option('--actor <actor_id>', 'the actor (default: the caller)')
    .action(
      guarded(setExit, async (opts: StateOptions) => {
        const ctx = groupContext(opts);
        const result = await ctx.client.call('capability_state', { group_id: ctx.groupId, by: ctx.by, ...(opts.actor ? { actor_id: opts.actor } : {}) });
        if (ctx.json) return printJson(result);
        printLines([
          `actor:    ${result.actor_id}${result.is_foreman ? ' (foreman)' : ''}`,
          `enabled:  ${result.enabled_capabilities.join(', ') || '-'}`,
          `tools:    ${result.visible_tools.join(', ')}`,
          ...(result.dynamic_tool_dropped ? [`dropped:  ${result.dynamic_tool_dropped} external tool(s) over the limit of ${result.dynamic_tool_limit}`] : []),
          ...(result.session_bindings.length ? [`sessions: ${result.session_bindings.map((s) => `${s.capability_id} until ${s.expires_at}`).join(', ')}`] : []),
          ...(result.hidden_capabilities.length ? [`hidden:   ${result.hidden_capabilities.map((h) => `${h.capability_id} (${h.reason})`).join(', ')}`] : []),
          ...((result.blocked_capabilities ?? []).length ? [`blocked:  ${(result.blocked_capabilities ?? []).map((b) => `${b.capability_id} (${b.scope})`).join(', ')}`] : []),
        ]);
      }),
    );

  withGroupOptions(cap.command('import <file>').description('import one capability record from a JSON file ("-" reads stdin)'))
    .option('--dry-run', 'validate and probe only; store nothing')
    .option('--enable', 'enable it right after the import')
    .option('--scope <scope>', 'with --enable: group, actor or session', scopeOf)
    .option('--actor <actor_id>', 'the actor (default: the caller)')
    .action(
      guarded(setExit, async (file: string, opts: ImportOptions) => {
        const ctx = groupContext(opts);
        let record: unknown;
        try {
          record = JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
        } catch (error) {
          throw cliError(CliErrorCodes.invalidRequest, `cannot read a JSON record from ${file}: ${(error as Error).message}`);
        }
        const result = await ctx.client.call('capability_import', {
          group_id: ctx.groupId,
          by: ctx.by,
          record: record as never,
          ...(opts.dryRun ? { dry_run: true } : {}),
          ...(opts.enable ? { enable_after_import: true } : {}),
          ...(opts.scope ? { scope: opts.scope } : {}),
          ...(opts.actor ? { actor_id: opts.actor } : {}),
        });
        if (ctx.json) return printJson(result);
        printLines([
          `${result.capability_id}: ${result.dry_run ? 'dry run' : (result.import_action ?? 'imported')}, ${result.state}${result.reason ? ` — ${result.reason}` : ''}`,
          ...result.diagnostics.map((d) => `  ${d.code}: ${d.message}`),
        ]);
      }),
    );
}
