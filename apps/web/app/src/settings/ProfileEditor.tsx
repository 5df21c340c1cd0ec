import { useState } from 'react';
import { api } from '../api/client';
import { useT } from '../i18n/I18nProvider';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { apiMessage } from './api-message';
import { upsertInput, type ProfileDraft } from './profile-form';

type Saved = Record<string, unknown> & { id: string };

/** One profile's fields (name, runtime, command), saved with actor_profile_upsert. */
export function ProfileEditor({
  initial,
  revision,
  onSaved,
  onCancel,
}: {
  initial: ProfileDraft;
  revision?: number;
  onSaved: (profile: Saved) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const title = initial.id ? t('profiles.editTitle', { name: initial.name || initial.id }) : t('profiles.newTitle');
  const save = () => {
    setBusy(true);
    setError(null);
    api.actor_profile_upsert({ profile: upsertInput(draft), ...(revision !== undefined ? { expected_revision: revision } : {}) }).then(
      (r) => {
        setBusy(false);
        onSaved(r.profile as Saved);
      },
      (e: Error) => {
        setBusy(false);
        setError(apiMessage(e));
      },
    );
  };
  return (
    <Card title={title} aria-label={title}>
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label>
          {t('profiles.name')}
          <input value={draft.name} required onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label>
          {t('profiles.runtime')}
          <input value={draft.runtime} required onChange={(e) => setDraft({ ...draft, runtime: e.target.value })} />
        </label>
        <label>
          {t('profiles.command')}
          <input value={draft.command} placeholder={t('profiles.commandHint')} onChange={(e) => setDraft({ ...draft, command: e.target.value })} />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="row">
          <Button type="submit" variant="primary" disabled={busy || !draft.name.trim() || !draft.runtime.trim()}>
            {t('profiles.save')}
          </Button>
          <Button onClick={onCancel}>{t('profiles.cancel')}</Button>
        </div>
      </form>
    </Card>
  );
}
