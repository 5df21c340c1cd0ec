import type { ActorListEntry } from '../api/types';
import { waitingOf, waitingText } from '../activity/waiting';
import type { ActivityState } from '../activity/activity-store';
import { useT } from '../i18n/I18nProvider';

/**
 * At the foot of the conversation: each agent that waits on a person right now (its own hooks
 * say so), with a link to its terminal where the prompt can be answered.
 */
export function WaitingBanner({ groupId, actors, activity, onOpenTerminal }: { groupId: string; actors: readonly ActorListEntry[]; activity: ActivityState; onOpenTerminal: (actorId: string) => void }) {
  const t = useT();
  const waiting = actors.flatMap((a) => {
    const w = waitingOf(a, activity);
    return w ? [{ actor: a, w }] : [];
  });
  if (waiting.length === 0) return null;
  return (
    <ul className="waiting-banner" aria-label={t('waiting.title')}>
      {waiting.map(({ actor, w }) => (
        <li key={actor.id} data-actor={actor.id} data-kind={w.kind} role="status">
          <span className="waiting-dot" aria-hidden="true" />
          <span className="waiting-text">{waitingText(actor.title || actor.id, w, t)}</span>
          <a
            href={`?group=${encodeURIComponent(groupId)}&actor=${encodeURIComponent(actor.id)}`}
            onClick={(e) => {
              e.preventDefault();
              onOpenTerminal(actor.id);
            }}
          >
            {t('waiting.openTerminal')}
          </a>
        </li>
      ))}
    </ul>
  );
}
