import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import type { GroupDoc } from '../api/types';
import { useT } from '../i18n/I18nProvider';

/** The choices of the state select; `stopped` stops the group. */
const STATES = ['active', 'idle', 'paused', 'stopped'] as const;

/**
 * The selected group's lifecycle and scopes: start / stop, active / idle / paused, attach a
 * directory, detach a scope. Every action reports the daemon's error code as it came.
 */
export function GroupControls({ groupId, onChanged }: { groupId: string; onChanged: () => void }) {
  const t = useT();
  const [group, setGroup] = useState<GroupDoc | null>(null);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.group_show(groupId).then(
      (r) => live && setGroup(r.group),
      (e: Error) => live && setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message),
    );
    return () => {
      live = false;
    };
  }, [groupId]);

  const act = (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    run().then(
      () => {
        setBusy(false);
        onChanged();
      },
      (e: Error) => {
        setBusy(false);
        setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);
      },
    );
  };
  const running = group?.running ?? false;
  const state = running ? (group?.state ?? 'active') : 'stopped';
  const scopes = group?.scopes ?? [];

  return (
    <section className="group-controls" aria-label={t('groups.controls')}>
      <h3 title={groupId}>{group?.title ?? groupId}</h3>
      <div className="row">
        <button disabled={busy || running} onClick={() => act(() => api.group_start(groupId))}>
          {t('groups.start')}
        </button>
        <button disabled={busy || !running} onClick={() => act(() => api.group_stop(groupId))}>
          {t('groups.stop')}
        </button>
        <select
          aria-label={t('groups.stateLabel')}
          value={state}
          disabled={busy || !running}
          onChange={(e) => {
            const state = STATES.find((s) => s === e.target.value);
            if (state) act(() => api.group_state(groupId, { state }));
          }}
        >
          <option value="active">{t('groups.state.active')}</option>
          <option value="idle">{t('groups.state.idle')}</option>
          <option value="paused">{t('groups.state.paused')}</option>
          {!running && <option value="stopped">{t('groups.state.stopped')}</option>}
        </select>
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const p = path.trim();
          if (p) act(() => api.attach(groupId, { path: p }).then(() => setPath('')));
        }}
      >
        <input aria-label={t('groups.attachDir')} placeholder="/path/to/project" value={path} onChange={(e) => setPath(e.target.value)} />
        <button type="submit" disabled={busy || !path.trim()}>
          {t('groups.attach')}
        </button>
      </form>
      {scopes.length > 0 && (
        <ul className="scope-list" aria-label={t('groups.scopes')}>
          {scopes.map((s) => (
            <li key={s.scope_key} data-active={s.scope_key === group?.active_scope_key ? 'true' : undefined}>
              <code title={s.scope_key}>{s.url}</code>
              <button aria-label={t('groups.detachScope', { url: s.url })} disabled={busy} onClick={() => act(() => api.group_detach_scope(groupId, s.scope_key))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="form-error">{error}</p>}
    </section>
  );
}
