import type { AutomationManageAction, AutomationRule, AutomationRuleSet, AutomationView, EventOf, OpArgs } from '@cccc/ipc-protocol';
import {
  automationError,
  AutomationErrorCodes,
  baselineRules,
  checkRuleset,
  effectiveSnippets,
  isoUtc,
  parseRule,
  peerView,
  reconcileState,
  ruleRefusal,
  ruleStatus,
  SUPPORTED_VARS,
  type CallerRole,
} from '@cccc/automation';
import { effectiveRole, groupError, isUserPrincipal, type GroupDoc } from '@cccc/groups';
import type { StoreDeps } from '../kernel/store-deps.js';
import {
  readAutomationState,
  readAutomationStateText,
  restoreAutomation,
  restoreAutomationStateText,
  storedAutomation,
  writeAutomation,
  writeAutomationState,
} from './automation-store.js';

export interface AutomationServiceDeps extends Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'> {
  /** The clock (ms since the epoch); tests inject one. */
  readonly now: () => number;
}

/** §8.3 who is asking: the user, the group's foreman or one of its peers (anyone else is refused). */
export function callerRole(group: GroupDoc, by: string): CallerRole {
  if (isUserPrincipal(by)) return 'user';
  const role = effectiveRole(group.actors, by);
  if (!role) throw groupError('permission_denied', `${by} is not an actor of this group`, { by });
  return role;
}

function refuse(role: CallerRole, by: string, rule: AutomationRule): void {
  const reason = ruleRefusal(role, by, rule);
  if (reason) throw groupError('permission_denied', `rule ${rule.id}: ${reason}`, { by, rule_id: rule.id });
}

type UpdateEvent = EventOf<'group.automation_update'>;

/**
 * The automation ops' domain work (§8.3): views, validated ruleset writes with optimistic
 * concurrency, and their one event. Every write is a transition under the group's lock:
 * group.yaml, then state/automation.json, then the event; a failing step puts both files back.
 */
export class AutomationService {
  constructor(private readonly deps: AutomationServiceDeps) {}

  /** What `by` may see (a peer: group rules and its own), with status and version. */
  view(groupId: string, by: string): AutomationView {
    const group = this.deps.groups.get(groupId);
    const role = callerRole(group, by);
    const stored = storedAutomation(group);
    let ruleset: AutomationRuleSet = { rules: stored.rules, snippets: effectiveSnippets(stored) };
    if (role === 'peer') ruleset = peerView(ruleset, by);
    const state = readAutomationState(this.deps.layout, groupId);
    const now = this.deps.now();
    return {
      group_id: groupId,
      ruleset,
      status: Object.fromEntries(ruleset.rules.map((r) => [r.id, ruleStatus(r, state.rules[r.id] ?? {}, now)])),
      supported_vars: [...SUPPORTED_VARS],
      version: stored.version,
      server_now: isoUtc(now),
      config_path: this.deps.layout.groupYamlPath(groupId),
    };
  }

  /** group_automation_update: the user or the foreman (notify rules only). */
  update(args: OpArgs<'group_automation_update'>, by: string): Promise<AutomationView & { event: UpdateEvent }> {
    return this.deps.groupLocks.run(args.group_id, async () => {
      const group = this.deps.groups.get(args.group_id);
      const role = callerRole(group, by);
      if (role === 'peer') throw groupError('permission_denied', 'a peer manages its own rules with group_automation_manage', { by });
      const ruleset = checkRuleset(args.ruleset);
      for (const rule of ruleset.rules) refuse(role, by, rule);
      const event = await this.commit(args.group_id, by, ruleset, args.expected_version);
      return { ...this.view(args.group_id, by), event };
    });
  }

  /** group_automation_reset_baseline: the built-in rules (standup, off), no custom snippets. */
  resetBaseline(args: OpArgs<'group_automation_reset_baseline'>, by: string): Promise<AutomationView & { event: UpdateEvent }> {
    return this.deps.groupLocks.run(args.group_id, async () => {
      const role = callerRole(this.deps.groups.get(args.group_id), by);
      if (role !== 'user' && role !== 'foreman') throw groupError('permission_denied', 'resetting automation needs the foreman or user', { by });
      const event = await this.commit(args.group_id, by, { rules: baselineRules(), snippets: {} }, args.expected_version);
      return { ...this.view(args.group_id, by), event };
    });
  }

  /** group_automation_manage: every action applies or none does; no change, no event. */
  manage(args: OpArgs<'group_automation_manage'>, by: string) {
    return this.deps.groupLocks.run(args.group_id, async () => {
      const group = this.deps.groups.get(args.group_id);
      const role = callerRole(group, by);
      const stored = storedAutomation(group);
      if (args.expected_version !== undefined && args.expected_version !== stored.version) {
        throw automationError(AutomationErrorCodes.versionConflict, 'automation version mismatch', { expected_version: args.expected_version, current_version: stored.version });
      }
      const before: AutomationRuleSet = { rules: stored.rules, snippets: effectiveSnippets(stored) };
      const { ruleset, applied } = applyActions(before, args.actions, role, by);
      const changed = JSON.stringify(ruleset) !== JSON.stringify(before);
      const event = changed ? await this.commit(args.group_id, by, ruleset, stored.version) : null;
      return { ...this.view(args.group_id, by), applied_actions: applied, changed, event };
    });
  }

  /** A completed one-time rule turns itself off (by `system`), with the usual event. Call under the group lock. */
  async disableRule(groupId: string, ruleId: string): Promise<void> {
    const stored = storedAutomation(this.deps.groups.get(groupId));
    const rules = stored.rules.map((r) => (r.id === ruleId ? { ...r, enabled: false } : r));
    await this.commit(groupId, 'system', { rules, snippets: effectiveSnippets(stored) }, stored.version);
  }

  private async commit(groupId: string, by: string, ruleset: AutomationRuleSet, expectedVersion: number | undefined): Promise<UpdateEvent> {
    const { layout, ledgers, groups } = this.deps;
    const stateText = readAutomationStateText(layout, groupId);
    const { version, previous, previousDoc } = await writeAutomation(layout, groupId, ruleset, expectedVersion);
    groups.invalidate(groupId);
    try {
      const state = readAutomationState(layout, groupId);
      const rules = reconcileState(previous.rules, ruleset.rules, state.rules);
      if (rules) writeAutomationState(layout, groupId, { ...state, rules }, isoUtc(this.deps.now()));
      const data = { rules: ruleset.rules.map((r) => r.id), snippets: Object.keys(ruleset.snippets).sort(), version };
      const { event } = await ledgers.append(groupId, { kind: 'group.automation_update', by, data });
      return event as UpdateEvent;
    } catch (error) {
      await restoreAutomation(layout, groupId, previousDoc);
      restoreAutomationStateText(layout, groupId, stateText);
      groups.invalidate(groupId);
      throw error;
    }
  }
}

/** The manage actions over a working copy, in order; the first refusal aborts them all. */
function applyActions(before: AutomationRuleSet, actions: readonly AutomationManageAction[], role: CallerRole, by: string) {
  let order = before.rules.map((r) => r.id);
  let byId = new Map(before.rules.map((r) => [r.id, r]));
  let snippets = { ...before.snippets };
  const applied: Record<string, unknown>[] = [];
  const existing = (id: string) => {
    const rule = byId.get(id);
    if (!rule) throw automationError(AutomationErrorCodes.ruleNotFound, `no rule ${id}`, { rule_id: id });
    refuse(role, by, rule);
    return rule;
  };
  actions.forEach((action, i) => {
    const field = `actions.${i}`;
    switch (action.type) {
      case 'create_rule': {
        const rule = parseRule(action.rule, `${field}.rule`);
        if (byId.has(rule.id)) throw automationError(AutomationErrorCodes.ruleExists, `rule ${rule.id} exists`, { rule_id: rule.id, field });
        refuse(role, by, rule);
        byId.set(rule.id, rule);
        order.push(rule.id);
        applied.push({ type: action.type, rule_id: rule.id });
        return;
      }
      case 'update_rule': {
        const rule = parseRule(action.rule, `${field}.rule`);
        existing(rule.id);
        refuse(role, by, rule);
        byId.set(rule.id, rule);
        applied.push({ type: action.type, rule_id: rule.id });
        return;
      }
      case 'set_rule_enabled': {
        const rule = existing(action.rule_id);
        byId.set(rule.id, { ...rule, enabled: action.enabled });
        applied.push({ type: action.type, rule_id: rule.id, enabled: action.enabled });
        return;
      }
      case 'delete_rule': {
        existing(action.rule_id);
        byId.delete(action.rule_id);
        order = order.filter((id) => id !== action.rule_id);
        applied.push({ type: action.type, rule_id: action.rule_id });
        return;
      }
      case 'replace_all_rules': {
        if (role === 'peer') throw groupError('permission_denied', 'replace_all_rules needs the foreman or user', { by });
        const rules = action.ruleset.rules.map((raw, j) => parseRule(raw, `${field}.ruleset.rules.${j}`));
        const checked = checkRuleset({ rules, snippets: action.ruleset.snippets }, `${field}.ruleset`);
        for (const rule of checked.rules) refuse(role, by, rule);
        order = checked.rules.map((r) => r.id);
        byId = new Map(checked.rules.map((r) => [r.id, r]));
        snippets = { ...checked.snippets };
        applied.push({ type: action.type, rules: order.length, snippets: Object.keys(snippets).length });
        return;
      }
    }
  });
  return { ruleset: { rules: order.map((id) => byId.get(id)!), snippets }, applied };
}
