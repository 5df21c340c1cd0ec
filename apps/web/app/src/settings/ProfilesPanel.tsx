import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import { useI18n } from '../i18n/I18nProvider';
import { formatDateTime, formatNumber } from '../i18n/format';
import { Card } from '../ui/Card';
import { Chip } from '../ui/Chip';

type Profile = Record<string, unknown> & { id: string; usage_count: number };

const text = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(' ') : '');

/**
 * Settings › Profiles: the global actor profiles and how many actors link each. Stored profiles
 * are implementation-shaped records, so only the common fields are shown; secrets never reach the
 * browser (their keys stay behind the profile secret ops).
 */
export function ProfilesPanel() {
  const { t, locale } = useI18n();
  const [profiles, setProfiles] = useState<Profile[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.actor_profiles().then(
      (r) => live && setProfiles(r.profiles as Profile[]),
      (e: Error) => live && setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <Card title={t('profiles.title')} aria-label={t('profiles.title')}>
      <small className="muted">{t('profiles.hint')}</small>
      {error && <p className="form-error">{error}</p>}
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
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
