import './actors.css';
import { useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import type { ActorListEntry } from '../api/types';
import { useGroupLive } from '../group/GroupLive';
import { ActorCard, type ActorAction } from './ActorCard';
import { ActorForm } from './ActorForm';
import { useT } from '../i18n/I18nProvider';
import { Button } from '../ui/Button';

/**
 * The actors of one group (ActorCard each), add / edit forms, and lifecycle actions. Mounted per
 * group inside its GroupLiveProvider, which owns the live actor list and activity. A new
 * `addRequest` (the onboarding's "Custom command…") opens the add form.
 */
export function ActorsPanel({ onOpenTerminal, activeTerminal, addRequest }: { onOpenTerminal: (actorId: string) => void; activeTerminal: string | null; addRequest: number }) {
  const t = useT();
  const { groupId, actors, actorsError: error, refreshActors: refresh, activity, exits } = useGroupLive();
  const [editing, setEditing] = useState<ActorListEntry | 'new' | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const seenAddRequest = useRef(addRequest);
  useEffect(() => {
    if (addRequest === seenAddRequest.current) return;
    seenAddRequest.current = addRequest;
    setEditing('new');
  }, [addRequest]);

  const act = async (actorId: string, what: ActorAction) => {
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
    <section className="actors-panel" aria-label={t('actors.title')}>
      <header className="actors-head">
        <h2>{t('actors.title')}</h2>
        <Button size="sm" onClick={() => setEditing('new')}>
          {t('actors.add')}
        </Button>
      </header>
      {error && <p className="actor-error" role="alert">{error}</p>}
      {actionError && <p className="actor-error" role="alert">{actionError}</p>}
      {activity.error && <p className="actor-hint">{t('actors.activityUnavailable', { error: activity.error })}</p>}
      {actors === null ? (
        <p className="actor-hint">{t('app.loading')}</p>
      ) : actors.length === 0 ? (
        <p className="actor-hint">{t('actors.none')}</p>
      ) : (
        <ul className="actor-list">
          {actors.map((a) => (
            <ActorCard
              key={a.id}
              groupId={groupId}
              actor={a}
              activity={activity}
              exit={exits.get(a.id)}
              busy={busy === a.id}
              terminalOpen={activeTerminal === a.id}
              onAction={(what) => void act(a.id, what)}
              onEdit={() => setEditing(a)}
              onOpenTerminal={() => onOpenTerminal(a.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
