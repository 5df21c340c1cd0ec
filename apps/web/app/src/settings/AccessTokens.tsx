import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import { routePath, webRoutes, type AccessTokenEntry } from '../../../src/routes/route-map';
import { useT } from '../i18n/I18nProvider';

/**
 * Access tokens (admin routes). The list shows token prefixes only; a new token's full string
 * is shown once, right after creation, and never stored by the app. While no token exists the
 * Web is open: the first token also signs this browser in (it should be an admin token, or this
 * browser can no longer manage tokens).
 */
export function AccessTokens({ groupId }: { groupId: string }) {
  const t = useT();
  const [tokens, setTokens] = useState<AccessTokenEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [admin, setAdmin] = useState(true);
  const [created, setCreated] = useState<{ token: string; first: boolean } | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    let live = true;
    api.access_tokens().then(
      (r) => {
        if (!live) return;
        setTokens(r.tokens);
        setError(null);
      },
      (e: Error) => live && setError(e instanceof ApiError && e.status === 403 ? t('tokens.adminOnly') : e.message),
    );
    return () => {
      live = false;
    };
  }, [tick]);

  const fail = (e: Error) => setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

  return (
    <fieldset className="tokens">
      <legend>{t('tokens.title')}</legend>
      {error && <p className="form-error">{error}</p>}
      {tokens && tokens.length === 0 && <p className="muted">{t('tokens.none')}</p>}
      {tokens && tokens.length > 0 && (
        <ul className="token-list" aria-label={t('tokens.title')}>
          {tokens.map((tok) => (
            <li key={tok.id}>
              <code>{tok.id}…</code> {tok.is_admin ? <span className="state-badge">{t('tokens.admin')}</span> : <span className="muted">{(tok.allowed_groups ?? []).join(', ')}</span>}
              <button aria-label={t('tokens.revokeId', { id: tok.id })} onClick={() => api.access_token_revoke(tok.id).then(reload, fail)}>
                {t('tokens.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {tokens && (
        <div className="row">
          <label>
            <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.target.checked)} /> {t('tokens.admin')}
          </label>
          {!admin && <span className="muted">{t('tokens.groupOnly')}</span>}
          <button
            onClick={() =>
              api.access_token_create(admin ? { is_admin: true } : { allowed_groups: [groupId] }).then(async (r) => {
                // The first token closes the open Web, this browser included. Presenting it once
                // as a Bearer header makes the server set this browser's HttpOnly cookie, so the
                // session carries on (an admin token; a group token signs in but cannot list).
                const first = tokens.length === 0;
                if (first) await fetch(routePath(webRoutes.ping.path, []), { headers: { Authorization: `Bearer ${r.token}` }, credentials: 'same-origin' }).catch(() => undefined);
                setCreated({ token: r.token, first });
                reload();
              }, fail)
            }
          >
            {t('tokens.create')}
          </button>
        </div>
      )}
      {created && (
        <div className="token-created" role="status">
          <p>
            {t('tokens.created')} <code data-testid="new-token">{created.token}</code>
          </p>
          {created.first && <p>{t('tokens.firstCreated')}</p>}
        </div>
      )}
    </fieldset>
  );
}
