import './actors.css';
import { useState } from 'react';
import { ActivityTicker } from '../activity/ActivityTicker';
import { useRuntimeActivity } from '../activity/use-runtime-activity';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import type { ActorListEntry } from '../api/types';
import { ActorForm } from './ActorForm';
import { StartProblem } from './StartProblem';
import { useActors } from './use-actors';
import { workingBadge } from './working-badge';

type Action = 'start' | 'stop' | 'restart';

/**
 * The actors of one group: working-state badge with its source, the runtime activity ticker,
 * lifecycle buttons, edit / remove and the terminal. Mounted per group (keyed by the group id),
 * so leaving a group drops its actor list and its activity state together.
 */
export function ActorsPanel({ groupId, onOpenTerminal, activeTerminal }: { groupId: string; onOpenTerminal: (actorId: string) => void; activeTerminal: string | null }) {
  const { actors, error, refresh } = useActors(groupId);
  const activity = useRuntimeActivity(groupId);
  const [editing, setEditing] = useState<ActorListEntry | 'new' | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const act = async (actorId: string, what: Action | 'remove') => {
    if (what === 'remove' && !window.confirm(`Remove actor ${actorId}?`)) return;
    setBusy(actorId);
    setActionError(null);
    try {
      if (what === 'remove') await api.actor_remove(groupId, actorId);
      else await api[`actor_${what}`](groupId, actorId);
    } catch (e) {
      setActionError(`${actorId} ${what}: ${e instanceof ApiError ? `${e.code}: ${e.message}` : String(e)}`);
    } finally {
      setBusy(null);
      refresh();
    }
  };

  if (editing) {
    return (
      <section className="actors-panel">
        <ActorForm
          key={editing === 'new' ? 'new' : editing.id}
          groupId={groupId}
          actor={editing === 'new' ? null : editing}
          onDone={() => {
            setEditing(null);
            refresh();
          }}
        />
      </section>
    );
  }

  return (
    <section className="actors-panel" aria-label="Actors">
      <header className="actors-head">
        <h2>Actors</h2>
        <button onClick={() => setEditing('new')}>Add actor</button>
      </header>
      {error && <p className="actor-error" role="alert">{error}</p>}
      {actionError && <p className="actor-error" role="alert">{actionError}</p>}
      {activity.error && <p className="actor-hint">activity unavailable: {activity.error}</p>}
      {actors === null ? (
        <p className="actor-hint">Loading…</p>
      ) : actors.length === 0 ? (
        <p className="actor-hint">No actors yet.</p>
      ) : (
        <ul className="actor-list">
          {actors.map((a) => {
            const badge = workingBadge(a);
            return (
              <li key={a.id} className="actor-card" data-actor={a.id} data-active={activeTerminal === a.id || undefined}>
                <ActivityTicker state={activity.state} actorId={a.id} now={activity.now} />
                <div className="actor-line">
                  <span className="actor-name" title={a.id}>
                    {a.title || a.id}
                    {a.role === 'foreman' && <span className="actor-role">foreman</span>}
                  </span>
                  <span className="working-badge" data-state={badge.state} data-source={badge.source} title={badge.title}>
                    {badge.label}
                  </span>
                </div>
                <div className="actor-meta">
                  <code>{a.id}</code> · {a.runtime}
                  {a.enabled === false && ' · disabled'}
                </div>
                <StartProblem actor={a} />
                <div className="actor-actions">
                  {a.running ? (
                    <>
                      <button disabled={busy === a.id} onClick={() => act(a.id, 'stop')}>Stop</button>
                      <button disabled={busy === a.id} onClick={() => act(a.id, 'restart')}>Restart</button>
                      <button aria-pressed={activeTerminal === a.id} onClick={() => onOpenTerminal(a.id)}>Terminal</button>
                    </>
                  ) : (
                    <button disabled={busy === a.id} onClick={() => act(a.id, 'start')}>Start</button>
                  )}
                  <button onClick={() => setEditing(a)}>Edit</button>
                  <button disabled={busy === a.id} onClick={() => act(a.id, 'remove')}>Remove</button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
