import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import { routePath, webRoutes, type AccessTokenEntry } from '../../../src/routes/route-map';

/**
 * Access tokens (admin routes). The list shows token prefixes only; a new token's full string
 * is shown once, right after creation, and never stored by the app. While no token exists the
 * Web is open: the first token also signs this browser in (it should be an admin token, or this
 * browser can no longer manage tokens).
 */
export function AccessTokens({ groupId }: { groupId: string }) {
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
      (e: Error) => live && setError(e instanceof ApiError && e.status === 403 ? 'Only an admin token can manage access tokens.' : e.message),
    );
    return () => {
      live = false;
    };
  }, [tick]);

  const fail = (e: Error) => setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

  return (
    <fieldset className="tokens">
      <legend>Access tokens</legend>
      {error && <p className="form-error">{error}</p>}
      {tokens && tokens.length === 0 && <p className="muted">No tokens: this Web is open to anyone who can reach it.</p>}
      {tokens && tokens.length > 0 && (
        <ul className="token-list" aria-label="Access tokens">
          {tokens.map((t) => (
            <li key={t.id}>
              <code>{t.id}…</code> {t.is_admin ? <span className="state-badge">admin</span> : <span className="muted">{(t.allowed_groups ?? []).join(', ')}</span>}
              <button aria-label={`Revoke ${t.id}`} onClick={() => api.access_token_revoke(t.id).then(reload, fail)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {tokens && (
        <div className="row">
          <label>
            <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.target.checked)} /> admin
          </label>
          {!admin && <span className="muted">limited to this group</span>}
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
            Create token
          </button>
        </div>
      )}
      {created && (
        <div className="token-created" role="status">
          <p>
            New token (shown once): <code data-testid="new-token">{created.token}</code>
          </p>
          {created.first && <p>This Web now requires a token; this browser is signed in with the new one.</p>}
        </div>
      )}
    </fieldset>
  );
}
