import { Option, type Command } from 'commander';
import type { OpResult } from '@cccc/ipc-protocol';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { collectList } from '../option-parsers.js';
import { groupContext, guarded, withGroupOptions, type GroupContext, type GroupOptions } from '../context.js';
import { printJson, printLines } from '../output.js';

// `cccc automation`: the group's scheduled rules (§8.3) — list, set (create or update), enable,
// disable, delete, and the scheduler's run state per rule.

interface SetOptions extends GroupOptions {
  every?: string;
  cron?: string;
  tz?: string;
  at?: string;
  to?: string[];
  message?: string;
  snippet?: string;
  title?: string;
  priority?: 'low' | 'normal' | 'high' | 'urgent';
  personal?: boolean;
  disabled?: boolean;
}

type View = OpResult<'group_automation_state'>;
type Rule = Record<string, any>;

function triggerText(t: Rule): string {
  if (t['kind'] === 'interval') return `every ${t['every_seconds']}s`;
  if (t['kind'] === 'cron') return `cron "${t['cron']}"${t['timezone'] ? ` ${t['timezone']}` : ''}`;
  return `at ${t['at']}`;
}

function actionText(a: Rule | undefined): string {
  const kind = a?.['kind'] ?? 'notify';
  if (kind === 'group_state') return `group → ${a?.['state']}`;
  if (kind === 'actor_control') return `${a?.['operation']} ${(a?.['targets'] ?? []).join(',')}`;
  return a?.['snippet_ref'] ? `notify snippet:${a['snippet_ref']}` : `notify "${a?.['message'] ?? ''}"`;
}

function ruleLines(view: View): string[] {
  if (view.ruleset.rules.length === 0) return [`no rules (version ${view.version})`];
  return [
    `version ${view.version}`,
    ...view.ruleset.rules.map((r) => {
      const on = r['enabled'] === false ? 'off' : 'on ';
      const scope = r['scope'] === 'personal' ? ` (personal: ${r['owner_actor_id']})` : '';
      return `${on} ${r['id']}${scope}: ${triggerText(r['trigger'] as Rule)} → ${actionText(r['action'] as Rule | undefined)} to ${((r['to'] as string[] | undefined) ?? []).join(',') || '-'}`;
    }),
  ];
}

function stateLines(view: View): string[] {
  return Object.entries(view.status).map(([id, s]) => {
    const parts = [`next ${s.next_fire_at || '-'}`, `last ${s.last_fired_at || '-'}`];
    if (s.completed) parts.push(`completed ${s.completed_at}`);
    if (s.last_error) parts.push(`error ${s.last_error_at}: ${s.last_error}`);
    return `${id}: ${parts.join(', ')}`;
  });
}

async function manage(ctx: GroupContext, actions: unknown[]) {
  return ctx.client.call('group_automation_manage', { group_id: ctx.groupId, by: ctx.by, actions: actions as never });
}

function buildRule(id: string, opts: SetOptions, existing: Rule | undefined): Rule {
  const triggers = [opts.every, opts.cron, opts.at].filter((v) => v !== undefined);
  if (triggers.length > 1) throw cliError(CliErrorCodes.invalidRequest, 'give one of --every, --cron, --at', { field: 'trigger' });
  let trigger = existing?.['trigger'];
  if (opts.every !== undefined) {
    const seconds = Number(opts.every);
    if (!Number.isInteger(seconds) || seconds <= 0) throw cliError(CliErrorCodes.invalidRequest, '--every takes a positive number of seconds', { field: 'every' });
    trigger = { kind: 'interval', every_seconds: seconds };
  } else if (opts.cron !== undefined) trigger = { kind: 'cron', cron: opts.cron, ...(opts.tz ? { timezone: opts.tz } : {}) };
  else if (opts.at !== undefined) trigger = { kind: 'at', at: opts.at };
  if (!trigger) throw cliError(CliErrorCodes.invalidRequest, 'a new rule needs --every, --cron or --at', { field: 'trigger' });
  const prev = existing?.['action'] ?? {};
  const action: Rule = (prev['kind'] ?? 'notify') === 'notify' ? { kind: 'notify', ...prev } : { ...prev };
  if (opts.message !== undefined) action['message'] = opts.message;
  if (opts.snippet !== undefined) action['snippet_ref'] = opts.snippet;
  if (opts.title !== undefined) action['title'] = opts.title;
  if (opts.priority) action['priority'] = opts.priority;
  const rule: Rule = { ...(existing ?? { enabled: true, scope: 'group' }), id, trigger, action };
  if (opts.to?.length) rule['to'] = opts.to;
  if (opts.personal) Object.assign(rule, { scope: 'personal', owner_actor_id: opts.by ?? process.env['CCCC_ACTOR_ID'] ?? 'user' });
  if (opts.disabled) rule['enabled'] = false;
  if (!rule['to']) rule['to'] = opts.personal ? [rule['owner_actor_id']] : ['@foreman'];
  return rule;
}

export function registerAutomationCommands(program: Command, setExit: (code: number) => void): void {
  const automation = program.command('automation').description('scheduled group automation rules (notify, group state, actor control)');

  withGroupOptions(automation.command('list').description('the rules you may see, with the ruleset version')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const view = await ctx.client.call('group_automation_state', { group_id: ctx.groupId, by: ctx.by });
      if (ctx.json) return printJson(view);
      printLines(ruleLines(view));
    }),
  );

  withGroupOptions(automation.command('run-state').description('per rule: next fire, last fire, completion, last error')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const view = await ctx.client.call('group_automation_state', { group_id: ctx.groupId, by: ctx.by });
      if (ctx.json) return printJson({ group_id: view.group_id, status: view.status, version: view.version, server_now: view.server_now });
      printLines([`now ${view.server_now}`, ...stateLines(view)]);
    }),
  );

  withGroupOptions(automation.command('set <rule_id>').description('create or update a notify rule'))
    .option('--every <seconds>', 'interval trigger')
    .option('--cron <expr>', 'cron trigger (five fields)')
    .option('--tz <timezone>', 'IANA time zone of --cron (default UTC)')
    .option('--at <rfc3339>', 'one-time trigger')
    .option('--to <recipients>', 'recipients (@foreman, @peers, @all, actor ids); repeatable or comma-separated', collectList)
    .option('--message <text>', 'notification text ({{group_title}}, {{actor_names}}, {{interval_minutes}}, {{scheduled_at}})')
    .option('--snippet <name>', 'use a snippet instead of --message')
    .option('--title <title>', 'notification title')
    .addOption(new Option('--priority <priority>', 'priority').choices(['low', 'normal', 'high', 'urgent']))
    .option('--personal', 'a personal rule owned by --by (peers may only set these, to themselves)')
    .option('--disabled', 'store the rule switched off')
    .action(
      guarded(setExit, async (ruleId: string, opts: SetOptions) => {
        const ctx = groupContext(opts);
        const view = await ctx.client.call('group_automation_state', { group_id: ctx.groupId, by: ctx.by });
        const existing = view.ruleset.rules.find((r) => r['id'] === ruleId);
        const rule = buildRule(ruleId, { ...opts, by: ctx.by }, existing);
        const result = await ctx.client.call('group_automation_manage', {
          group_id: ctx.groupId,
          by: ctx.by,
          expected_version: view.version,
          actions: [{ type: existing ? 'update_rule' : 'create_rule', rule }],
        });
        if (ctx.json) return printJson(result);
        printLines([`${existing ? 'updated' : 'created'} ${ruleId} (version ${result.version})`]);
      }),
    );

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    withGroupOptions(automation.command(`${name} <rule_id>`).description(`switch a rule ${enabled ? 'on' : 'off'}`)).action(
      guarded(setExit, async (ruleId: string, opts: GroupOptions) => {
        const ctx = groupContext(opts);
        const result = await manage(ctx, [{ type: 'set_rule_enabled', rule_id: ruleId, enabled }]);
        if (ctx.json) return printJson(result);
        printLines([result.changed ? `${ruleId} ${enabled ? 'enabled' : 'disabled'} (version ${result.version})` : `${ruleId} already ${enabled ? 'enabled' : 'disabled'}`]);
      }),
    );
  }

  withGroupOptions(automation.command('delete <rule_id>').description('remove a rule')).action(
    guarded(setExit, async (ruleId: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await manage(ctx, [{ type: 'delete_rule', rule_id: ruleId }]);
      if (ctx.json) return printJson(result);
      printLines([`deleted ${ruleId} (version ${result.version})`]);
    }),
  );
}
