import { useCallback, useEffect, useState } from 'react';
import { ApiError, del, get, post, seg } from '../api/http';

type TokenEntry = { id: string; is_admin?: boolean; allowed_groups?: string[]; user_id?: string; created_at?: string };

/**
 * Access tokens (admin routes). The list shows token prefixes only; a new token's full string
 * is shown once, right after creation, and never stored by the app. While no token exists the
 * Web is open: the first token should be an admin token, or this browser locks itself out.
 */
export function AccessTokens({ groupId }: { groupId: string }) {
  const [tokens, setTokens] = useState<TokenEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [admin, setAdmin] = useState(true);
  const [created, setCreated] = useState<{ token: string; first: boolean } | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    let live = true;
    get<{ tokens: TokenEntry[] }>('/access-tokens').then(
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
              <button aria-label={`Revoke ${t.id}`} onClick={() => del(`/access-tokens/${seg(t.id)}`).then(reload, fail)}>
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
              post<{ token: string }>('/access-tokens', admin ? { is_admin: true } : { allowed_groups: [groupId] }).then((r) => {
                // The first token closes the open Web, this browser included: reloading the
                // list would answer 401, so the token stays on screen with a sign-in button.
                const first = tokens.length === 0;
                setCreated({ token: r.token, first });
                if (!first) reload();
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
          {created.first && (
            <p>
              This Web now requires a token.{' '}
              <button
                onClick={() => {
                  // The server moves ?token= into its HttpOnly cookie; the app drops it from the URL.
                  const url = new URL(window.location.href);
                  url.searchParams.set('token', created.token);
                  window.location.assign(url.toString());
                }}
              >
                Use it in this browser
              </button>
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
