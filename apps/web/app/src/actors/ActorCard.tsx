import { ActivityTicker } from '../activity/ActivityTicker';
import type { ActivityState } from '../activity/activity-store';
import { waitingOf, waitingText } from '../activity/waiting';
import type { ActorListEntry } from '../api/types';
import type { ActorExit } from './actor-exits';
import { ActorKeys } from './ActorKeys';
import { HeadlessPermissions } from './HeadlessPermissions';
import { StartProblem } from './StartProblem';
import { isManagedSource, workingBadge } from './working-badge';
import { useT } from '../i18n/I18nProvider';

export type ActorAction = 'start' | 'stop' | 'restart' | 'remove';

interface Props {
  readonly groupId: string;
  readonly actor: ActorListEntry;
  readonly activity: { readonly state: ActivityState; readonly now: number };
  readonly exit: ActorExit | undefined;
  readonly busy: boolean;
  readonly terminalOpen: boolean;
  readonly onAction: (action: ActorAction) => void;
  readonly onEdit: () => void;
  readonly onOpenTerminal: () => void;
}

/**
 * One actor: the runtime ticker, name / foreman / working-state badge with its evidence, what it
 * waits for, why it is not running (with Relaunch), its keys and lifecycle buttons.
 */
export function ActorCard({ groupId, actor: a, activity, exit, busy, terminalOpen, onAction, onEdit, onOpenTerminal }: Props) {
  const t = useT();
  const badge = workingBadge(a, t);
  const waiting = waitingOf(a, activity.state);
  // A stopped actor whose failure or exit is explained above gets Relaunch there instead of Start.
  const explained = !a.running && (a.start_failure !== undefined || exit !== undefined);
  return (
    <li className="actor-card" data-actor={a.id} data-active={terminalOpen || undefined}>
      <ActivityTicker state={activity.state} actorId={a.id} now={activity.now} waitingTool={waiting?.toolActivity ?? null} />
      <div className="actor-line">
        <span className="actor-name" title={a.id}>
          {a.title || a.id}
          {a.role === 'foreman' && <span className="actor-role">{t('actors.foreman')}</span>}
        </span>
        <span className="working-badge" data-state={badge.state} data-source={badge.source} title={badge.title}>
          {badge.label}
        </span>
      </div>
      <div className="actor-meta">
        <code>{a.id}</code> · {a.runtime}
        {a.enabled === false && ' · disabled'}
      </div>
      {waiting && (
        <p className="actor-waiting" role="status">
          {waitingText(a.title || a.id, waiting, t)}
        </p>
      )}
      {a.running && isManagedSource(a.state_source) && a.effective_working_state === 'waiting' && (
        <HeadlessPermissions groupId={groupId} actorId={a.id} version={a.effective_working_updated_at} />
      )}
      <StartProblem actor={a} exit={exit} busy={busy} onRelaunch={() => onAction('start')} />
      {a.running && <ActorKeys groupId={groupId} actorId={a.id} />}
      <div className="actor-actions">
        {a.running ? (
          <>
            <button disabled={busy} onClick={() => onAction('stop')}>{t('actors.stop')}</button>
            <button disabled={busy} onClick={() => onAction('restart')}>{t('actors.restart')}</button>
            <button aria-pressed={terminalOpen} onClick={onOpenTerminal}>{t('actors.terminal')}</button>
          </>
        ) : explained ? null : (
          <button disabled={busy} onClick={() => onAction('start')}>{t('actors.start')}</button>
        )}
        <button onClick={onEdit}>{t('actors.edit')}</button>
        <button disabled={busy} onClick={() => onAction('remove')}>{t('actors.remove')}</button>
      </div>
    </li>
  );
}
