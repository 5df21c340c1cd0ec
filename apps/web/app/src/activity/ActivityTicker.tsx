import './activity.css';
import { projectBubbles, type ActivityState } from './activity-store';
import { useT } from '../i18n/I18nProvider';

function formatElapsed(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * The runtime ticker above one actor: its current tool activity, newest active first.
 * `waitingTool`: the activity its hooks say waits for permission (see waiting.ts).
 */
export function ActivityTicker({ state, actorId, now, waitingTool = null }: { state: ActivityState; actorId: string; now: number; waitingTool?: string | null }) {
  const t = useT();
  const bubbles = projectBubbles(state, actorId, now, waitingTool, t).slice(0, 3);
  if (bubbles.length === 0) return null;
  return (
    <ul className="activity-ticker" aria-label={t('activity.of', { actor: actorId })}>
      {bubbles.map((b) => (
        <li key={b.key} className="activity-bubble" data-status={b.status} data-kind={b.kind} title={b.key}>
          <span className="activity-text">{b.text}</span>
          <span className="activity-time">{formatElapsed(b.elapsedMs)}</span>
        </li>
      ))}
    </ul>
  );
}
