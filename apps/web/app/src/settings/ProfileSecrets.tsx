import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import { useT } from '../i18n/I18nProvider';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { useToast } from '../ui/Toast';
import { apiMessage } from './api-message';
import { isSecretKey } from './profile-form';

/**
 * A profile's secrets, write-only: the key names are listed, a value can be set (a password
 * field, emptied once sent) or a key removed, or all cleared. No value is ever read back.
 */
export function ProfileSecrets({ profileId }: { profileId: string }) {
  const t = useT();
  const toast = useToast();
  const [keys, setKeys] = useState<readonly string[] | null>(null);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    api.actor_profile_secret_keys(profileId).then(
      (r) => setKeys(r.keys),
      (e: Error) => setError(apiMessage(e)),
    );
  }, [profileId]);
  useEffect(reload, [reload]);
  const update = (args: { set?: Record<string, string>; unset?: string[]; clear?: boolean }) => {
    setError(null);
    api.actor_profile_secret_update(profileId, args).then(
      (r) => {
        setKeys(r.keys);
        toast(t('settings.saved'), 'ok');
      },
      (e: Error) => setError(apiMessage(e)),
    );
  };
  const title = t('profiles.secrets');
  return (
    <Card title={title} aria-label={title}>
      <small className="muted">{t('profiles.secretsHint')}</small>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {keys !== null &&
        (keys.length === 0 ? (
          <p className="muted">{t('profiles.noSecrets')}</p>
        ) : (
          <ul className="secret-keys" aria-label={t('profiles.secretKeys')}>
            {keys.map((k) => (
              <li key={k} className="row">
                <code>{k}</code>
                <Button size="sm" variant="ghost" aria-label={t('profiles.unsetKey', { key: k })} onClick={() => update({ unset: [k] })}>
                  {t('profiles.unset')}
                </Button>
              </li>
            ))}
          </ul>
        ))}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          update({ set: { [key.trim()]: value } });
          setKey('');
          setValue('');
        }}
      >
        <input aria-label={t('profiles.secretKey')} placeholder={t('profiles.secretKey')} value={key} onChange={(e) => setKey(e.target.value)} />
        <input type="password" autoComplete="off" aria-label={t('profiles.secretValue')} placeholder={t('profiles.secretValue')} value={value} onChange={(e) => setValue(e.target.value)} />
        <Button type="submit" variant="primary" disabled={!isSecretKey(key.trim()) || value === ''}>
          {t('profiles.setSecret')}
        </Button>
        <Button variant="danger" disabled={!keys || keys.length === 0} onClick={() => update({ clear: true })}>
          {t('profiles.clearSecrets')}
        </Button>
      </form>
    </Card>
  );
}
