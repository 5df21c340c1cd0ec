// Pure text for the automation tab: how a rule's trigger and action read, and the rule a
// "new reminder" form describes.

type Rule = Record<string, unknown>;
const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

export function triggerText(rule: Rule): string {
  const t = rec(rule['trigger']);
  if (t['kind'] === 'interval') {
    const s = Number(t['every_seconds']);
    return s % 3600 === 0 ? `every ${s / 3600} h` : s % 60 === 0 ? `every ${s / 60} min` : `every ${s} s`;
  }
  if (t['kind'] === 'cron') return `cron ${String(t['cron'])}${t['timezone'] ? ` (${String(t['timezone'])})` : ' (UTC)'}`;
  return `once at ${String(t['at'])}`;
}

export function actionText(rule: Rule): string {
  const a = rec(rule['action']);
  const kind = a['kind'] ?? 'notify';
  if (kind === 'group_state') return `set group ${String(a['state'])}`;
  if (kind === 'actor_control') return `${String(a['operation'])} ${((a['targets'] as string[] | undefined) ?? []).join(', ')}`;
  const to = ((rule['to'] as string[] | undefined) ?? []).join(', ') || 'nobody';
  return a['snippet_ref'] ? `notify ${to}: snippet ${String(a['snippet_ref'])}` : `notify ${to}: ${String(a['message'] ?? '')}`;
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

/** The notify rule a filled form describes, or what is missing. */
export function reminderRule(form: ReminderForm): { ok: true; rule: Rule } | { ok: false; error: string } {
  const id = form.id.trim();
  if (!id) return { ok: false, error: 'Give the rule an id.' };
  if (!form.message.trim()) return { ok: false, error: 'Write the message.' };
  let trigger: Rule;
  if (form.kind === 'interval') {
    const minutes = Number(form.when);
    if (!Number.isFinite(minutes) || minutes <= 0) return { ok: false, error: 'The interval is a positive number of minutes.' };
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
