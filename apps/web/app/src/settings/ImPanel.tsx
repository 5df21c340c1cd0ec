import { useCallback, useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useT } from '../i18n/I18nProvider';

type ImConfig = RouteResult<'im_config'>['im'];
type Pending = RouteResult<'im_pending'>['pending'][number];
type Platform = 'telegram' | 'slack' | 'discord';

const describe = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

/**
 * The group's IM bridge (§8.16): platform, bot token (write-only: the daemon stores it as a
 * secret and only says whether one is stored), enable; pending one-time keys to bind or reject;
 * authorized chats to revoke.
 */
export function ImPanel({ groupId }: { groupId: string }) {
  const [config, setConfig] = useState<ImConfig | undefined>(undefined);
  const [pending, setPending] = useState<Pending[]>([]);
  const [authorized, setAuthorized] = useState<Array<Record<string, unknown>>>([]);
  const [platform, setPlatform] = useState<Platform>('telegram');
  const [token, setToken] = useState('');
  const [appToken, setAppToken] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();
  const target = (chat: unknown, thread: unknown) =>
    thread === undefined || thread === 0 ? String(chat) : t('im.thread', { chat: String(chat), thread: String(thread) });

  const refresh = useCallback(async () => {
    const [c, p, a] = await Promise.all([api.im_config(groupId), api.im_pending(groupId), api.im_authorized(groupId)]);
    setConfig(c.im);
    if (c.im) setPlatform(c.im.platform);
    setPending(p.pending);
    setAuthorized(a.authorized);
  }, [groupId]);

  useEffect(() => {
    refresh().catch((e: Error) => setError(describe(e)));
  }, [refresh]);

  const run = (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    work()
      .then(refresh)
      .catch((e: Error) => setError(describe(e)))
      .finally(() => setBusy(false));
  };

  const save = (enabled?: boolean) =>
    run(async () => {
      await api.im_config_set(groupId, {
        platform,
        ...(token.trim() ? { bot_token: token.trim() } : {}),
        ...(appToken.trim() ? { app_token: appToken.trim() } : {}),
        ...(enabled === undefined ? {} : { enabled }),
      });
      setToken('');
      setAppToken('');
    });

  return (
    <fieldset className="im-panel" aria-label={t('im.legend')}>
      <legend>{t('im.legend')}</legend>
      <p role="status" className="im-status">
        {config === undefined
          ? t('im.loading')
          : config === null
            ? t('im.notConfigured')
            : t('im.status', { platform: config.platform, state: t(config.enabled ? 'im.enabled' : 'im.disabled'), bot: t(config.bot_token_present ? 'im.stored' : 'im.missing') }) +
              (config.platform === 'slack' ? t('im.statusApp', { app: t(config.app_token_present ? 'im.stored' : 'im.missing') }) : '')}
      </p>
      <p className="muted">{t('im.runsWithGroup')}</p>
      <label className="field">
        <span>{t('im.platform')}</span>
        <select aria-label={t('im.platformAria')} value={platform} onChange={(e) => setPlatform(e.target.value as Platform)}>
          <option value="telegram">Telegram</option>
          <option value="slack">Slack</option>
          <option value="discord">Discord</option>
        </select>
      </label>
      <label className="field">
        <span>{t('im.botToken')}</span>
        <input type="password" autoComplete="off" aria-label={t('im.botToken')} value={token} placeholder={config?.bot_token_present ? t('im.tokenStoredPlaceholder') : ''} onChange={(e) => setToken(e.target.value)} />
        <small className="muted">{t('im.tokenHint')}</small>
      </label>
      {platform === 'slack' && (
        <label className="field">
          <span>{t('im.appToken')}</span>
          <input type="password" autoComplete="off" aria-label={t('im.appToken')} value={appToken} onChange={(e) => setAppToken(e.target.value)} />
        </label>
      )}
      <div className="row">
        <button type="button" disabled={busy} onClick={() => save()}>
          {t('im.save')}
        </button>
        {config && (
          <button type="button" disabled={busy} onClick={() => save(!config.enabled)}>
            {t(config.enabled ? 'im.disable' : 'im.enable')}
          </button>
        )}
      </div>

      <h4>{t('im.pendingTitle')}</h4>
      {pending.length === 0 ? (
        <p className="muted">{t('im.noPending')}</p>
      ) : (
        <ul className="im-pending">
          {pending.map((p) => (
            <li key={p.key} data-key={p.key}>
              <code>{p.key}</code> {p.platform} {target(p.chat_id, p.thread_id)} <span className="muted">{t('im.secondsLeft', { seconds: String(p.expires_in_seconds) })}</span>{' '}
              <button type="button" disabled={busy} onClick={() => run(() => api.im_bind(groupId, { key: p.key }))}>
                {t('im.bind')}
              </button>{' '}
              <button type="button" disabled={busy} onClick={() => run(() => api.im_reject(groupId, { key: p.key }))}>
                {t('im.reject')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <input aria-label={t('im.bindKeyAria')} value={key} placeholder={t('im.bindKeyPlaceholder')} onChange={(e) => setKey(e.target.value)} />
        <button type="button" disabled={busy || key.trim() === ''} onClick={() =>
            run(async () => {
              await api.im_bind(groupId, { key: key.trim() });
              setKey('');
            })
          }>
          {t('im.bindKey')}
        </button>
      </div>

      <h4>{t('im.authorizedTitle')}</h4>
      {authorized.length === 0 ? (
        <p className="muted">{t('im.noAuthorized')}</p>
      ) : (
        <ul className="im-authorized">
          {authorized.map((a) => (
            <li key={`${String(a['chat_id'])}:${String(a['thread_id'])}`}>
              {String(a['platform'] ?? '')} {target(a['chat_id'], a['thread_id'])}{' '}
              <button
                type="button"
                disabled={busy}
                onClick={() => run(() => api.im_revoke(groupId, { chat_id: String(a['chat_id']), thread_id: a['thread_id'] as number | string }))}
              >
                {t('im.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
