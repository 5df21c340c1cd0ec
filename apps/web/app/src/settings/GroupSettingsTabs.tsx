import type { ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';
import { Button } from '../ui/Button';
import type { SettingsForm } from './settings-form';
import type { GroupSettingsController } from './use-group-settings';

type SecondsKey = 'mail_notice_after_seconds' | 'reply_notice_after_seconds' | 'min_interval_seconds';

/** One tab's slice of the group settings form, with the shared Save. */
function GroupSettingsForm({ settings, legend, children }: { settings: GroupSettingsController; legend: string; children: (form: SettingsForm) => ReactNode }) {
  const t = useT();
  const { form, patch, status, busy } = settings;
  if (!form) return status ? <p className="form-error">{status.text}</p> : <p className="muted pad">{t('app.loading')}</p>;
  return (
    <form
      className="settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        settings.save(t('settings.saved'));
      }}
    >
      <fieldset>
        <legend>{legend}</legend>
        {children(form)}
      </fieldset>
      <div className="row">
        <Button type="submit" variant="primary" disabled={busy || (patch?.ok === true && Object.keys(patch.patch).length === 0)}>
          {t('settings.save')}
        </Button>
        {status && (
          <span className={status.ok ? 'form-ok' : 'form-error'} role="status">
            {status.text}
          </span>
        )}
      </div>
      <small className="muted">{t('settings.unsaved')}</small>
    </form>
  );
}

export function MessagingTab({ settings }: { settings: GroupSettingsController }) {
  const t = useT();
  return (
    <GroupSettingsForm settings={settings} legend={t('settings.tab.messaging')}>
      {(form) => (
        <label className="field">
          <span>{t('settings.defaultRecipients')}</span>
          <select aria-label={t('settings.defaultRecipients')} value={form.default_send_to} onChange={(e) => settings.set('default_send_to', e.target.value as SettingsForm['default_send_to'])}>
            <option value="foreman">{t('settings.defaultRecipients.foreman')}</option>
            <option value="broadcast">{t('settings.defaultRecipients.broadcast')}</option>
          </select>
          <small className="muted">{t('settings.defaultRecipients.hint')}</small>
        </label>
      )}
    </GroupSettingsForm>
  );
}

export function DeliveryTab({ settings }: { settings: GroupSettingsController }) {
  const t = useT();
  const seconds = (form: SettingsForm, key: SecondsKey, label: string, hint: string) => (
    <label className="field" key={key}>
      <span>{label}</span>
      <input type="number" min={0} step={1} aria-label={label} value={form[key]} onChange={(e) => settings.set(key, e.target.value)} />
      <small className="muted">{hint}</small>
    </label>
  );
  return (
    <GroupSettingsForm settings={settings} legend={t('settings.noticeTimers')}>
      {(form) => [
        seconds(form, 'mail_notice_after_seconds', t('settings.mailNotice'), t('settings.mailNotice.hint')),
        seconds(form, 'reply_notice_after_seconds', t('settings.replyNotice'), t('settings.replyNotice.hint')),
        seconds(form, 'min_interval_seconds', t('settings.minInterval'), t('settings.minInterval.hint')),
      ]}
    </GroupSettingsForm>
  );
}

export function TranscriptTab({ settings }: { settings: GroupSettingsController }) {
  const t = useT();
  return (
    <GroupSettingsForm settings={settings} legend={t('settings.transcript')}>
      {(form) => (
        <label className="field">
          <span>{t('settings.transcript.visibility')}</span>
          <select
            aria-label={t('settings.transcript.label')}
            value={form.terminal_transcript_visibility}
            onChange={(e) => settings.set('terminal_transcript_visibility', e.target.value as SettingsForm['terminal_transcript_visibility'])}
          >
            <option value="off">{t('settings.transcript.off')}</option>
            <option value="foreman">{t('settings.transcript.foreman')}</option>
            <option value="all">{t('settings.transcript.all')}</option>
          </select>
          <small className="muted">{t('settings.transcript.hint')}</small>
        </label>
      )}
    </GroupSettingsForm>
  );
}
