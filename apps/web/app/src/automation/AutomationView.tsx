import { useCallback, useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useLedgerStream } from '../api/use-ledger-stream';
import { actionText, EMPTY_REMINDER, reminderRule, triggerText, type ReminderForm } from './automation-text';

type View = RouteResult<'automation'>;

const errorText = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);
const KINDS = ['group.automation_update', 'system.notify'] as const;
/** Next-fire times move with the clock: refresh them this often while the tab is open. */
const REFRESH_MS = 15_000;

/**
 * The Automation tab: the group's scheduled rules with their next fire, last fire and last error,
 * switches to enable and disable them, a form for a new reminder, and the snippets rules may use.
 * Every change is a group_automation_manage with the version the tab last read, so a change made
 * meanwhile elsewhere is refused (version_conflict) instead of overwritten.
 */
export function AutomationView({ groupId }: { groupId: string }) {
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

  if (!view) return <section className="settings">{status ? <p className="form-error">{status.text}</p> : <p className="muted pad">Loading…</p>}</section>;
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
    <section className="settings automation" aria-label="Automation">
      <p className="muted">
        Rules run from the daemon's scheduler (version {view.version}, server time {view.server_now}). A paused or stopped group runs none; an idle group skips the stand-up.
      </p>
      <table className="automation-rules">
        <thead>
          <tr>
            <th>On</th>
            <th>Rule</th>
            <th>When</th>
            <th>Does</th>
            <th>Next</th>
            <th>Last</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {view.ruleset.rules.map((rule) => {
            const id = String(rule['id']);
            const s = view.status[id];
            return (
              <tr key={id} data-rule={id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Enable ${id}`}
                    checked={rule['enabled'] !== false}
                    onChange={(e) => {
                      const enabled = e.target.checked;
                      // Shown at once; the reload after the call puts back what the daemon holds.
                      setView({ ...view, ruleset: { ...view.ruleset, rules: view.ruleset.rules.map((r) => (r['id'] === id ? { ...r, enabled } : r)) } });
                      void manage([{ type: 'set_rule_enabled', rule_id: id, enabled }], `${id} ${enabled ? 'enabled' : 'disabled'}.`);
                    }}
                  />
                </td>
                <td>
                  <code>{id}</code>
                  {rule['scope'] === 'personal' && <span className="muted"> (personal: {String(rule['owner_actor_id'])})</span>}
                </td>
                <td>{triggerText(rule)}</td>
                <td>{actionText(rule)}</td>
                <td>{s?.completed ? `done ${s.completed_at}` : s?.next_fire_at || '—'}</td>
                <td>
                  {s?.last_fired_at || '—'}
                  {s?.last_error && <div className="form-error" title={s.last_error_at}>{s.last_error}</div>}
                </td>
                <td>
                  <button type="button" aria-label={`Delete ${id}`} onClick={() => void manage([{ type: 'delete_rule', rule_id: id }], `${id} deleted.`)}>
                    Delete
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {status && <p className={status.ok ? 'form-ok' : 'form-error'} role="status">{status.text}</p>}
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          const built = reminderRule(form);
          if (!built.ok) return setStatus({ ok: false, text: built.error });
          void manage([{ type: 'create_rule', rule: built.rule }], `${String(built.rule['id'])} created.`).then((ok) => ok && setForm(EMPTY_REMINDER));
        }}
      >
        <fieldset>
          <legend>New reminder</legend>
          <label className="field">
            <span>Id</span>
            <input aria-label="Rule id" value={form.id} onChange={(e) => setForm({ ...form, id: e.target.value })} />
          </label>
          <label className="field">
            <span>Schedule</span>
            <select aria-label="Schedule kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as ReminderForm['kind'], when: e.target.value === 'interval' ? '30' : '' })}>
              <option value="interval">every N minutes</option>
              <option value="cron">cron</option>
              <option value="at">once at</option>
            </select>
          </label>
          <label className="field">
            <span>{form.kind === 'interval' ? 'Minutes' : form.kind === 'cron' ? 'Cron (5 fields)' : 'Time (RFC 3339)'}</span>
            <input aria-label="When" value={form.when} placeholder={form.kind === 'cron' ? '0 9 * * 1-5' : form.kind === 'at' ? '2026-12-24T09:00:00Z' : '30'} onChange={(e) => setForm({ ...form, when: e.target.value })} />
          </label>
          {form.kind === 'cron' && (
            <label className="field">
              <span>Time zone</span>
              <input aria-label="Time zone" value={form.timezone} placeholder="UTC" onChange={(e) => setForm({ ...form, timezone: e.target.value })} />
            </label>
          )}
          <label className="field">
            <span>To</span>
            <input aria-label="Recipients" value={form.to} onChange={(e) => setForm({ ...form, to: e.target.value })} />
            <small className="muted">@foreman, @peers, @all or actor ids, comma-separated.</small>
          </label>
          <label className="field">
            <span>Message</span>
            <textarea aria-label="Message" value={form.message} onChange={(e) => setForm({ ...form, message: e.target.value })} />
            <small className="muted">Variables: {view.supported_vars.map((v) => `{{${v}}}`).join(' ')}</small>
          </label>
          <div className="row">
            <button type="submit">Add reminder</button>
          </div>
        </fieldset>
      </form>
      <fieldset className="automation-snippets">
        <legend>Snippets</legend>
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
