import { z } from 'zod';
import { NotifyPriority } from '../kinds/notify.js';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg, eventOfKind } from './shared.js';

// §8.3 group automation: scheduled system.notify rules, one-time group_state / actor_control
// rules, and snippets. Rules are strict: an unknown field is refused, never stored for an engine
// to ignore later.

export const AutomationTrigger = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('interval'), every_seconds: z.number().int().positive() }),
  z.strictObject({ kind: z.literal('cron'), cron: z.string().min(1), timezone: z.string().min(1).optional() }),
  z.strictObject({ kind: z.literal('at'), at: z.string().min(1) }),
]);
export type AutomationTrigger = z.infer<typeof AutomationTrigger>;

export const NotifyRuleAction = z.strictObject({
  kind: z.literal('notify').optional(),
  title: z.string().optional(),
  snippet_ref: z.string().nullable().optional(),
  message: z.string().optional(),
  priority: NotifyPriority.optional(),
});
export const GroupStateRuleAction = z.strictObject({ kind: z.literal('group_state'), state: z.enum(['active', 'idle', 'paused', 'stopped']).optional() });
export const ActorControlRuleAction = z.strictObject({
  kind: z.literal('actor_control'),
  operation: z.enum(['start', 'stop', 'restart']).optional(),
  targets: z.array(z.string().min(1)).optional(),
});
export const AutomationAction = z.union([GroupStateRuleAction, ActorControlRuleAction, NotifyRuleAction]);
export type AutomationAction = z.infer<typeof AutomationAction>;

export const AutomationRule = z.strictObject({
  id: z.string(),
  enabled: z.boolean().optional(),
  scope: z.enum(['group', 'personal']).optional(),
  owner_actor_id: z.string().nullable().optional(),
  to: z.array(z.string()).optional(),
  trigger: AutomationTrigger,
  action: AutomationAction.optional(),
});
export type AutomationRule = z.infer<typeof AutomationRule>;

export const AutomationRuleSet = z.strictObject({ rules: z.array(AutomationRule), snippets: z.record(z.string(), z.string()) });
export type AutomationRuleSet = z.infer<typeof AutomationRuleSet>;

export const AutomationRuleStatus = z.object({
  last_fired_at: z.string(),
  last_error_at: z.string(),
  last_error: z.string(),
  next_fire_at: z.string(),
  completed: z.boolean(),
  completed_at: z.string(),
});
export type AutomationRuleStatus = z.infer<typeof AutomationRuleStatus>;

/** What every automation read answers (§8.3 group_automation_state). */
const automationView = {
  group_id: z.string(),
  ruleset: z.object({ rules: z.array(z.record(z.string(), z.unknown())), snippets: z.record(z.string(), z.string()) }),
  status: z.record(z.string(), AutomationRuleStatus),
  supported_vars: z.array(z.string()),
  version: z.number().int(),
  server_now: z.string(),
};
export const AutomationView = z.object({ ...automationView, config_path: z.string() });
export type AutomationView = z.infer<typeof AutomationView>;

const ExpectedVersion = z.number().int().optional();

export const group_automation_update = defineOp({
  summary: 'Replace the group automation rules and snippets (foreman or user).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, expected_version: ExpectedVersion, ruleset: AutomationRuleSet }),
  result: () => AutomationView.extend({ event: eventOfKind('group.automation_update') }),
});

export const group_automation_state = defineOp({
  summary: 'Effective automation rules, per-rule status and version (peers see group rules and their own).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg }),
  result: () => AutomationView,
});

export const AutomationManageAction = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('create_rule'), rule: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('update_rule'), rule: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('set_rule_enabled'), rule_id: z.string().min(1), enabled: z.boolean() }),
  z.strictObject({ type: z.literal('delete_rule'), rule_id: z.string().min(1) }),
  z.strictObject({
    type: z.literal('replace_all_rules'),
    ruleset: z.object({ rules: z.array(z.record(z.string(), z.unknown())), snippets: z.record(z.string(), z.string()) }),
  }),
]);
export type AutomationManageAction = z.infer<typeof AutomationManageAction>;

export const group_automation_manage = defineOp({
  summary: 'Apply create/update/enable/delete/replace actions to the automation rules, all or nothing.',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, expected_version: ExpectedVersion, actions: z.array(AutomationManageAction).min(1) }),
  result: () => z.object({
    ...automationView,
    config_path: z.string().optional(),
    applied_actions: z.array(z.record(z.string(), z.unknown())),
    changed: z.boolean(),
    event: eventOfKind('group.automation_update').nullable().optional(),
  }),
});

export const group_automation_reset_baseline = defineOp({
  summary: 'Reset the automation rules to the built-in baseline (standup, disabled).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, expected_version: ExpectedVersion }),
  result: () => AutomationView.extend({ event: eventOfKind('group.automation_update') }),
});
