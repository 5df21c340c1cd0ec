import type { MessageKey } from '../i18n/catalogs/en';
import { english, wordFor, type Translate } from '../i18n/plain';

// Pure text for the automation tab: how a rule's trigger and action read (in the page's
// language, English by default), and the rule a "new reminder" form describes.

type Rule = Record<string, unknown>;
const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

export function triggerText(rule: Rule, t: Translate = english): string {
  const trigger = rec(rule['trigger']);
  if (trigger['kind'] === 'interval') {
    const s = Number(trigger['every_seconds']);
    return s % 3600 === 0 ? t('automation.everyHours', { n: s / 3600 }) : s % 60 === 0 ? t('automation.everyMinutes', { n: s / 60 }) : t('automation.everySeconds', { n: s });
  }
  if (trigger['kind'] === 'cron') return t('automation.cronAt', { expr: String(trigger['cron']), zone: trigger['timezone'] ? String(trigger['timezone']) : 'UTC' });
  return t('automation.onceAt', { at: String(trigger['at']) });
}

export function actionText(rule: Rule, t: Translate = english): string {
  const a = rec(rule['action']);
  const kind = a['kind'] ?? 'notify';
  if (kind === 'group_state') return t('automation.setGroup', { state: wordFor(t, 'automation.groupState', String(a['state'])) });
  if (kind === 'actor_control') {
    const targets = ((a['targets'] as string[] | undefined) ?? []).join(', ');
    return t('automation.actorControl', { operation: wordFor(t, 'automation.operation', String(a['operation'])), targets });
  }
  const to = ((rule['to'] as string[] | undefined) ?? []).join(', ') || t('automation.nobody');
  return a['snippet_ref'] ? t('automation.notifySnippet', { to, snippet: String(a['snippet_ref']) }) : t('automation.notify', { to, message: String(a['message'] ?? '') });
}

export interface ReminderForm {
  id: string;
  kind: 'interval' | 'cron' | 'at';
  /** Minutes for interval, the expression for cron, RFC 3339 for at. */
  when: string;
  timezone: string;
  to: string;
  message: string;
}

export const EMPTY_REMINDER: ReminderForm = { id: '', kind: 'interval', when: '30', timezone: '', to: '@foreman', message: '' };

/** The notify rule a filled form describes, or the catalog key of what is missing. */
export function reminderRule(form: ReminderForm): { ok: true; rule: Rule } | { ok: false; error: MessageKey } {
  const id = form.id.trim();
  if (!id) return { ok: false, error: 'automation.error.id' };
  if (!form.message.trim()) return { ok: false, error: 'automation.error.message' };
  let trigger: Rule;
  if (form.kind === 'interval') {
    const minutes = Number(form.when);
    if (!Number.isFinite(minutes) || minutes <= 0) return { ok: false, error: 'automation.error.interval' };
    trigger = { kind: 'interval', every_seconds: Math.round(minutes * 60) };
  } else if (form.kind === 'cron') {
    trigger = { kind: 'cron', cron: form.when.trim(), ...(form.timezone.trim() ? { timezone: form.timezone.trim() } : {}) };
  } else trigger = { kind: 'at', at: form.when.trim() };
  const to = form.to
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { ok: true, rule: { id, enabled: true, scope: 'group', to: to.length ? to : ['@foreman'], trigger, action: { kind: 'notify', message: form.message.trim() } } };
}
