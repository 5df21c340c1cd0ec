import type { ActorListEntry } from '../api/types';
import { exitText, type ActorExit } from './actor-exits';
import { fullDate } from '../chat/time';
import { useI18n } from '../i18n/I18nProvider';

/** How many of the agent's last output lines the card shows at once (the daemon keeps up to 20). */
const SHOWN_TAIL_LINES = 6;

/**
 * Why the actor is not running, on its card: a start that did not run (missing executable, exit
 * within the first seconds with its code and last output lines), or an agent that ended by
 * itself later (its exit status); with Relaunch. A running actor shows what it runs without (a
 * failed version probe: no hooks).
 */
export function StartProblem({ actor, exit, busy, onRelaunch }: { actor: ActorListEntry; exit: ActorExit | undefined; busy: boolean; onRelaunch: () => void }) {
  const { t, locale } = useI18n();
  const failure = !actor.running ? actor.start_failure : undefined;
  const warning = actor.running ? actor.start_warning : undefined;
  const problem = failure ?? warning;
  const exited = !actor.running && !failure ? exit : undefined;
  if (!problem && !exited) return null;
  const tail = problem?.output_tail ?? [];
  const relaunch = !actor.running && (
    <button type="button" className="relaunch" disabled={busy} onClick={onRelaunch}>
      {t('actors.relaunch')}
    </button>
  );
  if (exited) {
    return (
      <div className="start-problem" data-kind="exit" role="status">
        <p>
          <strong>{t('start.notRunning')}</strong> {t('start.exitedAt', { how: exitText(exited, t) })} <time title={fullDate(exited.at, locale)}>{new Date(exited.at).toLocaleTimeString(locale)}</time>.
        </p>
        {relaunch}
      </div>
    );
  }
  return (
    <div className="start-problem" data-kind={failure ? 'failure' : 'warning'} data-code={problem!.code} role="status">
      <p>
        {/* The message already names the exit code or signal. */}
        <strong>{failure ? t('start.failed') : t('start.warning')}</strong> {problem!.message}
      </p>
      {tail.length > 0 && (
        <section aria-label={t('start.lastOutput', { actor: actor.id })}>
          <pre>{tail.slice(-SHOWN_TAIL_LINES).join('\n')}</pre>
        </section>
      )}
      {tail.length > SHOWN_TAIL_LINES && (
        <details>
          <summary>{t('start.allLines', { count: tail.length })}</summary>
          <pre>{tail.join('\n')}</pre>
        </details>
      )}
      {relaunch}
    </div>
  );
}
