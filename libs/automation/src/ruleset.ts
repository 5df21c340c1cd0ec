import { AutomationRule, AutomationRuleSet, type AutomationAction } from '@cccc/ipc-protocol';
import { automationError, AutomationErrorCodes } from './errors.js';
import { triggerProblem } from './schedule.js';

// Rules and snippets: validation, the built-in baseline, snippet storage and rendering.

/** The variables a snippet may use, exactly (§8.3 group_automation_state). */
export const SUPPORTED_VARS = ['interval_minutes', 'group_title', 'actor_names', 'scheduled_at'] as const;

/** The built-in rule suppressed while the group is idle. */
export const STANDUP_RULE_ID = 'standup';

/** Built-in snippets; a ruleset may override one under the same name. */
export const BUILTIN_SNIPPETS: Readonly<Record<string, string>> = {
  standup: [
    'Stand-up check for {{group_title}} (every {{interval_minutes}} min; team: {{actor_names}}).',
    'Keep this short: it is a coordination interrupt, not a status report.',
    '1. Ask each active peer for one line: what is done, what is next, what blocks them.',
    '2. Re-plan only where someone is blocked or two people overlap.',
    '3. If unsure how to reach someone or what a tool does, call cccc_help.',
  ].join('\n'),
};

export function baselineRules(): AutomationRule[] {
  return [
    {
      id: STANDUP_RULE_ID,
      enabled: false,
      scope: 'group',
      owner_actor_id: null,
      to: ['@foreman'],
      trigger: { kind: 'interval', every_seconds: 900 },
      action: { kind: 'notify', priority: 'normal', title: 'Stand-up reminder', snippet_ref: 'standup', message: '' },
    },
  ];
}

export function actionKind(action: AutomationAction | undefined): 'notify' | 'group_state' | 'actor_control' {
  return action?.kind ?? 'notify';
}

const invalid = (message: string, details: Record<string, unknown>) => automationError(AutomationErrorCodes.invalidRule, message, details);

/**
 * One rule's semantic checks beyond its schema: a non-empty id, a runnable trigger,
 * group_state/actor_control only on an `at` trigger, a personal rule with an owner (a group
 * rule drops any owner). Returns the normalized rule.
 */
export function checkRule(rule: AutomationRule, field = 'rule'): AutomationRule {
  const id = rule.id.trim();
  if (!id) throw invalid('rule id must be non-empty', { field: `${field}.id` });
  const problem = triggerProblem(rule.trigger);
  if (problem) throw invalid(`rule ${id}: ${problem}`, { field: `${field}.trigger`, rule_id: id });
  const kind = actionKind(rule.action);
  if (kind !== 'notify' && rule.trigger.kind !== 'at') {
    throw invalid(`rule ${id}: action.kind=${kind} only supports trigger.kind=at`, { field: `${field}.trigger.kind`, rule_id: id });
  }
  const scope = rule.scope ?? 'group';
  const owner = rule.owner_actor_id?.trim() ?? '';
  if (scope === 'personal' && !owner) throw invalid(`rule ${id}: a personal rule needs owner_actor_id`, { field: `${field}.owner_actor_id`, rule_id: id });
  return { ...rule, id, scope, owner_actor_id: scope === 'group' ? null : owner };
}

/** A whole ruleset: every rule checked, ids unique. */
export function checkRuleset(ruleset: AutomationRuleSet, field = 'ruleset'): AutomationRuleSet {
  const seen = new Set<string>();
  const rules = ruleset.rules.map((rule, i) => {
    const checked = checkRule(rule, `${field}.rules.${i}`);
    if (seen.has(checked.id)) throw invalid(`duplicate rule id: ${checked.id}`, { field: `${field}.rules.${i}.id`, rule_id: checked.id });
    seen.add(checked.id);
    return checked;
  });
  return { rules, snippets: { ...ruleset.snippets } };
}

/** Parse an untyped rule (manage actions carry records) with the strict schema. */
export function parseRule(raw: unknown, field: string): AutomationRule {
  const parsed = AutomationRule.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = [field, ...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])].join('.');
    throw invalid(`${path}: ${issue.message}`, { field: path });
  }
  return checkRule(parsed.data, field);
}

/** Stored form: custom snippets, and overrides of built-in ones that differ from the built-in text. */
export function splitSnippets(snippets: Readonly<Record<string, string>>): { snippets: Record<string, string>; snippet_overrides: Record<string, string> } {
  const custom: Record<string, string> = {};
  const overrides: Record<string, string> = {};
  for (const [name, text] of Object.entries(snippets)) {
    if (Object.hasOwn(BUILTIN_SNIPPETS, name)) {
      if (text !== BUILTIN_SNIPPETS[name]) overrides[name] = text;
    } else custom[name] = text;
  }
  return { snippets: custom, snippet_overrides: overrides };
}

/** What rules see: built-ins, then overrides, then custom snippets. */
export function effectiveSnippets(stored: { snippets?: Record<string, string>; snippet_overrides?: Record<string, string> }): Record<string, string> {
  return { ...BUILTIN_SNIPPETS, ...(stored.snippet_overrides ?? {}), ...(stored.snippets ?? {}) };
}

export type SnippetVars = Record<(typeof SUPPORTED_VARS)[number], string>;

/** `{{name}}` placeholders of the supported variables; an unknown name renders empty. */
export function renderSnippet(template: string, vars: SnippetVars): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => (Object.hasOwn(vars, name) ? vars[name as keyof SnippetVars] : ''));
}
