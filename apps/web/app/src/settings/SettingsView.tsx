import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import { AccessTokens } from './AccessTokens';
import { CapabilitiesPanel } from './CapabilitiesPanel';
import { CopyGroupsPanel } from './CopyGroupsPanel';
import { ImPanel } from './ImPanel';
import { RemoteAccessPanel } from './RemoteAccessPanel';
import { diffSettings, formFromSettings, type SettingsForm } from './settings-form';

/**
 * Group settings the Web edits (messaging default recipients, Mail / reply notice timers,
 * terminal transcript visibility) plus the access tokens. Only changed fields are sent, as flat
 * spec names, so the daemon validates each one and rejects the whole patch on any error.
 */
export function SettingsView({ groupId }: { groupId: string }) {
  const [saved, setSaved] = useState<SettingsForm | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api.group_settings(groupId).then(
      (r) => {
        if (!live) return;
        const f = formFromSettings(r.settings);
        setSaved(f);
        setForm(f);
      },
      (e: Error) => live && setStatus({ ok: false, text: e instanceof ApiError ? `${e.code}: ${e.message}` : e.message }),
    );
    return () => {
      live = false;
    };
  }, [groupId]);

  if (!form || !saved) return <section className="settings">{status ? <p className="form-error">{status.text}</p> : <p className="muted pad">Loading…</p>}</section>;
  const patch = diffSettings(saved, form);
  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => {
    setForm({ ...form, [key]: value });
    setStatus(null);
  };
  const seconds = (key: 'mail_notice_after_seconds' | 'reply_notice_after_seconds' | 'min_interval_seconds', label: string, hint: string) => (
    <label className="field">
      <span>{label}</span>
      <input type="number" min={0} step={1} aria-label={label} value={form[key]} onChange={(e) => set(key, e.target.value)} />
      <small className="muted">{hint}</small>
    </label>
  );

  return (
    <section className="settings" aria-label="Settings">
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!patch.ok) {
            setStatus({ ok: false, text: patch.error });
            return;
          }
          setBusy(true);
          api.group_settings_update(groupId, patch.patch).then(
            () => {
              setBusy(false);
              setSaved(form);
              setStatus({ ok: true, text: 'Saved.' });
            },
            (err: Error) => {
              setBusy(false);
              setStatus({ ok: false, text: err instanceof ApiError ? `${err.code}: ${err.message}` : err.message });
            },
          );
        }}
      >
        <fieldset>
          <legend>Messaging</legend>
          <label className="field">
            <span>Default recipients</span>
            <select aria-label="Default recipients" value={form.default_send_to} onChange={(e) => set('default_send_to', e.target.value as SettingsForm['default_send_to'])}>
              <option value="foreman">foreman (@foreman)</option>
              <option value="broadcast">everyone (@all)</option>
            </select>
            <small className="muted">Who a message addressed to nobody goes to.</small>
          </label>
        </fieldset>
        <fieldset>
          <legend>Notice timers</legend>
          {seconds('mail_notice_after_seconds', 'Mail notice after (s)', 'One content-free notice to an agent with unread Mail.')}
          {seconds('reply_notice_after_seconds', 'Reply notice after (s)', 'One notice when a requested reply is still open.')}
          {seconds('min_interval_seconds', 'Minimum delivery interval (s)', 'Spacing between deliveries to one agent.')}
        </fieldset>
        <fieldset>
          <legend>Terminal transcript</legend>
          <label className="field">
            <span>Visibility</span>
            <select aria-label="Transcript visibility" value={form.terminal_transcript_visibility} onChange={(e) => set('terminal_transcript_visibility', e.target.value as SettingsForm['terminal_transcript_visibility'])}>
              <option value="off">off</option>
              <option value="foreman">foreman</option>
              <option value="all">all agents</option>
            </select>
            <small className="muted">Which agents may read other agents' terminal output.</small>
          </label>
        </fieldset>
        <div className="row">
          <button type="submit" disabled={busy || (patch.ok && Object.keys(patch.patch).length === 0)}>
            Save settings
          </button>
          {status && (
            <span className={status.ok ? 'form-ok' : 'form-error'} role="status">
              {status.text}
            </span>
          )}
        </div>
      </form>
      <AccessTokens groupId={groupId} />
      <CapabilitiesPanel groupId={groupId} />
      <CopyGroupsPanel groupId={groupId} />
      <ImPanel groupId={groupId} />
      <RemoteAccessPanel />
    </section>
  );
}
