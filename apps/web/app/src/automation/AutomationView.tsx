import { useCallback, useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useLedgerStream } from '../api/use-ledger-stream';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/I18nProvider';
import { Rich } from '../i18n/Rich';
import type { Locale } from '../i18n/locales';
import { actionText, EMPTY_REMINDER, reminderRule, triggerText, type ReminderForm } from './automation-text';
import { ScrollTable } from '../ui/ScrollTable';

type View = RouteResult<'automation'>;

const errorText = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);
const KINDS = ['group.automation_update', 'system.notify'] as const;
/** Next-fire times move with the clock: refresh them this often while the tab is open. */
const REFRESH_MS = 15_000;

/** A daemon timestamp in the page's language, the exact instant kept in `dateTime` and the tooltip. */
function Instant({ at, locale }: { at: string; locale: Locale }) {
  return (
    <time dateTime={at} title={at}>
      {formatDateTime(locale, at, { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}

/**
 * The Automation tab: the group's scheduled rules with their next fire, last fire and last error,
 * switches to enable and disable them, a form for a new reminder, and the snippets rules may use.
 * Every change is a group_automation_manage with the version the tab last read, so a change made
 * meanwhile elsewhere is refused (version_conflict) instead of overwritten.
 */
export function AutomationView({ groupId }: { groupId: string }) {
  const { t, locale } = useI18n();
  const [view, setView] = useState<View | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [form, setForm] = useState<ReminderForm>(EMPTY_REMINDER);
  const load = useCallback(() => {
    api.automation(groupId).then(setView, (e: Error) => setStatus({ ok: false, text: errorText(e) }));
  }, [groupId]);
  useEffect(() => {
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);
  useLedgerStream(groupId, KINDS, load);

  if (!view) return <section className="settings">{status ? <p className="form-error">{status.text}</p> : <p className="muted pad">{t('app.loading')}</p>}</section>;
  /** One manage call with the version last read; resolves to whether it applied. */
  const manage = (actions: unknown[], done: string): Promise<boolean> =>
    api.automation_manage(groupId, { expected_version: view.version, actions: actions as never }).then(
      (r) => {
        setView({ ...view, ...r, config_path: view.config_path });
        setStatus({ ok: true, text: done });
        load();
        return true;
      },
      (e: Error) => {
        setStatus({ ok: false, text: errorText(e) });
        load();
        return false;
      },
    );

  return (
    <section className="settings automation" aria-label={t('app.view.automation')}>
      <p className="muted">
        <Rich text={t('automation.intro', { version: view.version })} parts={{ now: <Instant at={view.server_now} locale={locale} /> }} />
      </p>
      <ScrollTable className="automation-rules" columns={[t('automation.col.on'), t('automation.col.rule'), t('automation.col.when'), t('automation.col.does'), t('automation.col.next'), t('automation.col.last'), '']}>
        {view.ruleset.rules.map((rule) => {
          const id = String(rule['id']);
          const s = view.status[id];
          return (
            <tr key={id} data-rule={id}>
              <td>
                <input
                  type="checkbox"
                  aria-label={t('automation.enableRule', { id })}
                  checked={rule['enabled'] !== false}
                  onChange={(e) => {
                    const enabled = e.target.checked;
                    // Shown at once; the reload after the call puts back what the daemon holds.
                    setView({ ...view, ruleset: { ...view.ruleset, rules: view.ruleset.rules.map((r) => (r['id'] === id ? { ...r, enabled } : r)) } });
                    void manage([{ type: 'set_rule_enabled', rule_id: id, enabled }], t(enabled ? 'automation.ruleEnabled' : 'automation.ruleDisabled', { id }));
                  }}
                />
              </td>
              <td>
                <code>{id}</code>
                {rule['scope'] === 'personal' && <span className="muted"> {t('automation.personal', { owner: String(rule['owner_actor_id']) })}</span>}
              </td>
              <td>{triggerText(rule, t)}</td>
              <td>{actionText(rule, t)}</td>
              <td>{s?.completed ? <Rich text={t('automation.done')} parts={{ at: s.completed_at ? <Instant at={s.completed_at} locale={locale} /> : '—' }} /> : s?.next_fire_at ? <Instant at={s.next_fire_at} locale={locale} /> : '—'}</td>
              <td>
                {s?.last_fired_at ? <Instant at={s.last_fired_at} locale={locale} /> : '—'}
                {s?.last_error && <div className="form-error" title={s.last_error_at}>{s.last_error}</div>}
              </td>
              <td>
                <button type="button" aria-label={t('automation.deleteRule', { id })} onClick={() => void manage([{ type: 'delete_rule', rule_id: id }], t('automation.deleted', { id }))}>
                  {t('automation.delete')}
                </button>
              </td>
            </tr>
          );
        })}
      </ScrollTable>
      {status && <p className={status.ok ? 'form-ok' : 'form-error'} role="status">{status.text}</p>}
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          const built = reminderRule(form);
          if (!built.ok) return setStatus({ ok: false, text: t(built.error) });
          void manage([{ type: 'create_rule', rule: built.rule }], t('automation.created', { id: String(built.rule['id']) })).then((ok) => ok && setForm(EMPTY_REMINDER));
        }}
      >
        <fieldset>
          <legend>{t('automation.newReminder')}</legend>
          <label className="field">
            <span>{t('automation.id')}</span>
            <input aria-label={t('automation.ruleIdAria')} value={form.id} onChange={(e) => setForm({ ...form, id: e.target.value })} />
          </label>
          <label className="field">
            <span>{t('automation.schedule')}</span>
            <select aria-label={t('automation.scheduleKindAria')} value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as ReminderForm['kind'], when: e.target.value === 'interval' ? '30' : '' })}>
              <option value="interval">{t('automation.kind.interval')}</option>
              <option value="cron">{t('automation.kind.cron')}</option>
              <option value="at">{t('automation.kind.at')}</option>
            </select>
          </label>
          <label className="field">
            <span>{t(form.kind === 'interval' ? 'automation.minutes' : form.kind === 'cron' ? 'automation.cronFields' : 'automation.timeRfc')}</span>
            <input aria-label={t('automation.whenAria')} value={form.when} placeholder={form.kind === 'cron' ? '0 9 * * 1-5' : form.kind === 'at' ? '2026-12-24T09:00:00Z' : '30'} onChange={(e) => setForm({ ...form, when: e.target.value })} />
          </label>
          {form.kind === 'cron' && (
            <label className="field">
              <span>{t('automation.timezone')}</span>
              <input aria-label={t('automation.timezone')} value={form.timezone} placeholder="UTC" onChange={(e) => setForm({ ...form, timezone: e.target.value })} />
            </label>
          )}
          <label className="field">
            <span>{t('automation.to')}</span>
            <input aria-label={t('automation.recipientsAria')} value={form.to} onChange={(e) => setForm({ ...form, to: e.target.value })} />
            <small className="muted">{t('automation.toHint')}</small>
          </label>
          <label className="field">
            <span>{t('automation.message')}</span>
            <textarea aria-label={t('automation.message')} value={form.message} onChange={(e) => setForm({ ...form, message: e.target.value })} />
            <small className="muted">
              <Rich text={t('automation.variables')} parts={{ vars: <code>{view.supported_vars.map((v) => `{{${v}}}`).join(' ')}</code> }} />
            </small>
          </label>
          <div className="row">
            <button type="submit">{t('automation.add')}</button>
          </div>
        </fieldset>
      </form>
      <fieldset className="automation-snippets">
        <legend>{t('automation.snippets')}</legend>
        {Object.entries(view.ruleset.snippets).map(([name, text]) => (
          <details key={name}>
            <summary>
              <code>{name}</code>
            </summary>
            <pre>{text}</pre>
          </details>
        ))}
      </fieldset>
    </section>
  );
}
