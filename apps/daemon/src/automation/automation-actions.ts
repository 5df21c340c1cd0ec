import type { AutomationRule } from '@cccc/ipc-protocol';
import { actionKind, effectiveSnippets, renderSnippet } from '@cccc/automation';
import { isVisibleActor, normalizeRecipientTokens, toMatchesActor, type GroupDoc } from '@cccc/groups';
import { storedAutomation } from './automation-store.js';

// What a due rule does. Actions go through the daemon's own ops (`dispatch`), so they obey every
// rule a client's request would: a notification is a durable system.notify append.

export type Dispatch = (op: string, args: Record<string, unknown>) => Promise<{ ok: boolean; error?: { code: string; message: string } | null }>;

export interface ActionOutcome {
  /** A durable effect happened (for notify: at least one system.notify was appended). */
  readonly completed: boolean;
  readonly error?: string;
}

const failed = (error: string): ActionOutcome => ({ completed: false, error });

function enabledActors(group: GroupDoc) {
  return group.actors.filter((a) => isVisibleActor(a) && a.enabled !== false);
}

/** Enabled actors a rule's `to` matches (`@all`, `@peers`, `@foreman`, ids). */
export function ruleRecipients(group: GroupDoc, to: readonly string[] | undefined): string[] {
  const tokens = normalizeRecipientTokens(to ?? [], group.actors);
  return enabledActors(group)
    .filter((a) => toMatchesActor(tokens, a, group.actors))
    .map((a) => a.id);
}

export async function runAction(dispatch: Dispatch, group: GroupDoc, rule: AutomationRule, due: { scheduledAt: string; intervalSeconds: number }): Promise<ActionOutcome> {
  const kind = actionKind(rule.action);
  if (kind === 'notify') return notify(dispatch, group, rule, due);
  if (kind === 'group_state') return groupState(dispatch, group, rule);
  return actorControl(dispatch, group, rule);
}

async function notify(dispatch: Dispatch, group: GroupDoc, rule: AutomationRule, due: { scheduledAt: string; intervalSeconds: number }): Promise<ActionOutcome> {
  const action = rule.action && (rule.action.kind ?? 'notify') === 'notify' ? (rule.action as { title?: string; snippet_ref?: string | null; message?: string; priority?: string }) : {};
  const snippets = effectiveSnippets(storedAutomation(group));
  const ref = action.snippet_ref?.trim();
  const template = ((ref && snippets[ref]) || action.message || '').trim();
  const message = renderSnippet(template, {
    interval_minutes: due.intervalSeconds >= 60 ? String(Math.floor(due.intervalSeconds / 60)) : '0',
    group_title: group.title,
    actor_names: enabledActors(group).map((a) => a.title || a.id).join(', '),
    scheduled_at: due.scheduledAt,
  }).trim();
  if (!message) return failed(ref && !snippets[ref] ? `snippet ${ref} does not exist` : 'nothing to send: no message and no snippet');
  const recipients = ruleRecipients(group, rule.to);
  if (recipients.length === 0) return failed('no enabled recipient matches the rule');
  let sent = 0;
  let error = '';
  for (const target of recipients) {
    const res = await dispatch('system_notify', {
      group_id: group.group_id,
      by: 'system',
      kind: 'automation',
      priority: action.priority ?? 'normal',
      title: action.title?.trim() || 'Reminder',
      message,
      target_actor_id: target,
      context: { rule_id: rule.id, scheduled_at: due.scheduledAt },
    });
    if (res.ok) sent++;
    else error = `${target}: ${res.error?.code ?? 'error'}: ${res.error?.message ?? ''}`;
  }
  return sent > 0 ? { completed: true, ...(error ? { error } : {}) } : failed(error);
}

async function step(dispatch: Dispatch, op: string, args: Record<string, unknown>): Promise<string | undefined> {
  const res = await dispatch(op, { ...args, by: 'user' });
  return res.ok ? undefined : `${op}: ${res.error?.code ?? 'error'}: ${res.error?.message ?? ''}`;
}

/** group_state: active starts a stopped group first; stopped is group_stop. */
async function groupState(dispatch: Dispatch, group: GroupDoc, rule: AutomationRule): Promise<ActionOutcome> {
  const target = rule.action && rule.action.kind === 'group_state' ? rule.action.state : undefined;
  if (!target) return failed('group_state action without state');
  const group_id = group.group_id;
  let error: string | undefined;
  if (target === 'stopped') error = await step(dispatch, 'group_stop', { group_id });
  else {
    if (target === 'active' && !group.running) error = await step(dispatch, 'group_start', { group_id });
    error ??= await step(dispatch, 'group_set_state', { group_id, state: target });
  }
  return error ? failed(error) : { completed: true };
}

/** actor_control: start/stop/restart each target (ids or selectors). */
async function actorControl(dispatch: Dispatch, group: GroupDoc, rule: AutomationRule): Promise<ActionOutcome> {
  const action = rule.action && rule.action.kind === 'actor_control' ? rule.action : undefined;
  if (!action?.operation) return failed('actor_control action without operation');
  const tokens = normalizeRecipientTokens(action.targets ?? [], group.actors);
  const targets = group.actors.filter((a) => isVisibleActor(a) && toMatchesActor(tokens, a, group.actors)).map((a) => a.id);
  if (targets.length === 0) return failed('actor_control action matches no actor');
  const errors: string[] = [];
  for (const actor_id of targets) {
    const error = await step(dispatch, `actor_${action.operation}`, { group_id: group.group_id, actor_id });
    if (error) errors.push(`${actor_id}: ${error}`);
  }
  return errors.length < targets.length ? { completed: true, ...(errors.length ? { error: errors.join('; ') } : {}) } : failed(errors.join('; '));
}
