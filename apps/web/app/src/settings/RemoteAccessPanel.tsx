import { useCallback, useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useT } from '../i18n/I18nProvider';

type RemoteAccess = RouteResult<'remote_access_state'>['remote_access'];

const describe = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

/**
 * Remote access (§8.17): provider (off, manual, tailscale), the Web binding and public URL,
 * start/stop. Exposing the Web beyond this machine needs an administrator access token first;
 * the daemon refuses otherwise (remote_access_admin_token_required) and this panel shows why.
 */
export function RemoteAccessPanel() {
  const t = useT();
  const [state, setState] = useState<RemoteAccess | null>(null);
  const [provider, setProvider] = useState<'off' | 'manual' | 'tailscale'>('off');
  const [host, setHost] = useState('');
  const [port, setPort] = useState('');
  const [publicUrl, setPublicUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const show = useCallback((ra: RemoteAccess) => {
    setState(ra);
    setProvider(ra.provider === 'reach' ? 'off' : ra.provider);
    const config = (ra.config ?? {}) as { web_host?: string; web_port?: number; web_public_url?: string | null };
    setHost(config.web_host ?? '');
    setPort(config.web_port ? String(config.web_port) : '');
    setPublicUrl(config.web_public_url ?? '');
  }, []);

  useEffect(() => {
    api.remote_access_state().then(
      (r) => show(r.remote_access),
      (e: Error) => setError(describe(e)),
    );
  }, [show]);

  const run = (p: Promise<{ remote_access: RemoteAccess }>) => {
    setBusy(true);
    setError(null);
    p.then(
      (r) => show(r.remote_access),
      (e: Error) => setError(describe(e)),
    ).finally(() => setBusy(false));
  };

  const save = () =>
    run(
      api.remote_access_configure({
        provider,
        ...(host.trim() ? { web_host: host.trim() } : {}),
        ...(port.trim() ? { web_port: Number(port) } : {}),
        web_public_url: publicUrl.trim(),
      }),
    );

  return (
    <fieldset className="remote-access" aria-label={t('remote.title')}>
      <legend>{t('remote.title')}</legend>
      {state && (
        <p role="status" className="remote-status">
          {t('remote.provider')} <strong>{state.provider === 'off' ? t('remote.off') : state.provider === 'manual' ? t('remote.manualShort') : state.provider === 'tailscale' ? 'Tailscale' : state.provider}</strong>{t('remote.statusSep')} <strong data-status={state.status}>{t(`remote.status.${state.status}`)}</strong>
          {state.endpoint ? (
            <>
              {' '}
              {t('remote.at')} <code>{state.endpoint}</code>
            </>
          ) : null}
        </p>
      )}
      <label className="field">
        <span>{t('remote.provider')}</span>
        <select aria-label={t('remote.providerSelect')} value={provider} onChange={(e) => setProvider(e.target.value as typeof provider)}>
          <option value="off">{t('remote.off')}</option>
          <option value="manual">{t('remote.manual')}</option>
          <option value="tailscale">Tailscale</option>
        </select>
      </label>
      <label className="field">
        <span>{t('remote.host')}</span>
        <input aria-label={t('remote.host')} value={host} onChange={(e) => setHost(e.target.value)} />
      </label>
      <label className="field">
        <span>{t('remote.port')}</span>
        <input aria-label={t('remote.port')} type="number" min={1} max={65535} value={port} onChange={(e) => setPort(e.target.value)} />
      </label>
      <label className="field">
        <span>{t('remote.publicUrl')}</span>
        <input aria-label={t('remote.publicUrl')} value={publicUrl} onChange={(e) => setPublicUrl(e.target.value)} placeholder="https://cccc.example.com/" />
      </label>
      <div className="row">
        <button type="button" disabled={busy} onClick={save}>
          {t('remote.save')}
        </button>
        <button type="button" disabled={busy} onClick={() => run(api.remote_access_start())}>
          {t('remote.start')}
        </button>
        <button type="button" disabled={busy} onClick={() => run(api.remote_access_stop())}>
          {t('remote.stop')}
        </button>
      </div>
      {/* The daemon writes the next steps (in English); they are shown as it wrote them. */}
      {state?.next_steps && state.next_steps.length > 0 && (
        <ul className="muted" data-daemon-text aria-label={t('remote.nextSteps')}>
          {state.next_steps.map((s) => (
            <li key={s}>{s}</li>
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
