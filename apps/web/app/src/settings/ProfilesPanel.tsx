import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import { useI18n } from '../i18n/I18nProvider';
import { formatDateTime, formatNumber } from '../i18n/format';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Chip } from '../ui/Chip';
import { useToast } from '../ui/Toast';
import { apiMessage } from './api-message';
import { ProfileEditor } from './ProfileEditor';
import { ProfileSecrets } from './ProfileSecrets';
import { EMPTY_DRAFT, draftOf, revisionOf, type ProfileDraft } from './profile-form';

type Profile = Record<string, unknown> & { id: string; usage_count: number };

const text = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(' ') : '');

/**
 * Settings › Profiles: the global actor profiles and how many actors link each; create, edit and
 * delete them, and set or clear their secrets. Stored profiles are implementation-shaped records,
 * so only the common fields are shown and edited; secret values never reach the browser.
 */
export function ProfilesPanel() {
  const { t, locale } = useI18n();
  const toast = useToast();
  const [profiles, setProfiles] = useState<Profile[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The profile being edited (its draft has an id) or created (no id yet), or none. */
  const [editing, setEditing] = useState<{ draft: ProfileDraft; revision?: number } | null>(null);
  const reload = useCallback(() => {
    api.actor_profiles().then(
      (r) => setProfiles(r.profiles as Profile[]),
      (e: Error) => setError(apiMessage(e)),
    );
  }, []);
  useEffect(reload, [reload]);

  const remove = (p: Profile) => {
    if (!window.confirm(t('profiles.deleteConfirm', { name: text(p.name) || p.id }))) return;
    setError(null);
    api.actor_profile_delete(p.id).then(
      () => {
        toast(t('profiles.deleted'), 'ok');
        if (editing?.draft.id === p.id) setEditing(null);
        reload();
      },
      (e: Error) => setError(apiMessage(e)),
    );
  };

  return (
    <div className="settings-stack">
      <Card
        title={t('profiles.title')}
        aria-label={t('profiles.title')}
        actions={
          <Button size="sm" variant="primary" onClick={() => setEditing({ draft: EMPTY_DRAFT })}>
            {t('profiles.new')}
          </Button>
        }
      >
        <small className="muted">{t('profiles.hint')}</small>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {profiles === null ? (
          !error && <p className="muted">{t('app.loading')}</p>
        ) : profiles.length === 0 ? (
          <p className="muted">{t('profiles.none')}</p>
        ) : (
          <table className="profiles-table">
            <thead>
              <tr>
                <th scope="col">{t('profiles.name')}</th>
                <th scope="col">{t('profiles.runtime')}</th>
                <th scope="col">{t('profiles.command')}</th>
                <th scope="col">{t('app.actors')}</th>
                <th scope="col">{t('profiles.updated')}</th>
                <th scope="col">{t('profiles.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {profiles.map((p) => (
                <tr key={p.id} data-profile={p.id}>
                  <td>{text(p.name) || p.id}</td>
                  <td>{text(p.runtime) && <Chip>{text(p.runtime)}</Chip>}</td>
                  <td>
                    <code>{text(p.command)}</code>
                  </td>
                  <td>{formatNumber(locale, p.usage_count)}</td>
                  <td>{text(p.updated_at) && formatDateTime(locale, text(p.updated_at))}</td>
                  <td className="row">
                    <Button size="sm" onClick={() => setEditing({ draft: draftOf(p), revision: revisionOf(p) })}>
                      {t('profiles.edit')}
                    </Button>
                    <Button size="sm" variant="danger" onClick={() => remove(p)}>
                      {t('profiles.delete')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {editing && (
        <ProfileEditor
          key={editing.draft.id ?? 'new'}
          initial={editing.draft}
          revision={editing.revision}
          onSaved={(saved) => {
            toast(t('settings.saved'), 'ok');
            setEditing({ draft: draftOf(saved), revision: revisionOf(saved) });
            reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      {editing?.draft.id && <ProfileSecrets key={`s-${editing.draft.id}`} profileId={editing.draft.id} />}
    </div>
  );
}
