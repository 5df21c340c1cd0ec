import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { api } from '../api/client';
import { subscribeLedger } from '../api/group-ledger-hub';
import { ApiError } from '../api/http';
import { installedFirst, loadRuntimes, type RuntimeInfo } from '../api/runtimes';
import type { GroupDoc } from '../api/types';
import { useGroupLive } from '../group/GroupLive';
import { currentStep, onboardingSteps, type StepId } from './steps';
import { useT } from '../i18n/I18nProvider';

const GROUP_KINDS = ['group.attach', 'group.detach_scope', 'group.start', 'group.stop'];

const message = (e: unknown) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e));

/**
 * A new group's three steps in the conversation: attach a folder, add an agent (the runtimes
 * installed on this machine first, one click each), start. Each step ticks itself off from what
 * the group shows; the card goes away once an agent runs.
 */
export function Onboarding({ groupId, onAddCustomActor, setUp }: { groupId: string; onAddCustomActor: () => void; setUp: ReactNode }) {
  const t = useT();
  const live = useGroupLive();
  const [group, setGroup] = useState<GroupDoc | null>(null);
  const [runtimes, setRuntimes] = useState<RuntimeInfo[] | null>(null);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    api.group_show(groupId).then(
      (r) => setGroup(r.group),
      (e: unknown) => setError(message(e)),
    );
  }, [groupId]);
  useEffect(() => {
    reload();
    return subscribeLedger(groupId, GROUP_KINDS, reload);
  }, [groupId, reload]);
  useEffect(() => {
    loadRuntimes().then(setRuntimes, (e: unknown) => setError(`runtimes: ${message(e)}`));
  }, []);

  const act = (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    run()
      .then(
        () => undefined,
        (e: unknown) => setError(message(e)),
      )
      .finally(() => {
        setBusy(false);
        reload();
        live.refreshActors();
      });
  };

  const actors = live.actors ?? [];
  if (!group || live.actors === null) return null;
  const steps = onboardingSteps({ scopes: group.scopes?.length ?? 0, actors: actors.length, running: actors.filter((a) => a.running).length });
  const current = currentStep(steps);
  if (current === null) return setUp;
  // PTY runtimes with a command: installed ones are one click; the rest only say they are missing.
  const offered = installedFirst(runtimes ?? []).filter((r) => r.runtime !== 'custom' && r.transport === 'pty' && r.command.length > 0);
  const installed = offered.filter((r) => r.installed);
  const missing = offered.filter((r) => !r.installed);

  const body: Record<StepId, ReactNode> = {
    attach: (
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const p = path.trim();
          if (p) act(() => api.attach(groupId, { path: p }).then(() => setPath('')));
        }}
      >
        <input aria-label={t('onboarding.folder')} placeholder="/path/to/project" value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} />
        <button type="submit" disabled={busy || !path.trim()}>
          {t('onboarding.attach')}
        </button>
      </form>
    ),
    agent: (
      <div className="onboarding-runtimes">
        {runtimes === null && <span className="muted">{t('onboarding.looking')}</span>}
        {runtimes !== null && installed.length === 0 && <span className="muted">{t('onboarding.noCli')}</span>}
        {installed.map((r) => (
          <button
            key={r.runtime}
            type="button"
            className="runtime-choice"
            disabled={busy}
            title={`${r.command.join(' ')}${r.path ? `\n${r.path}` : ''}`}
            onClick={() => act(() => api.actor_add(groupId, { runtime: r.runtime }))}
          >
            {t('onboarding.add', { runtime: r.runtime })}
          </button>
        ))}
        <button type="button" onClick={onAddCustomActor}>
          {t('onboarding.custom')}
        </button>
        {missing.length > 0 && (
          <details className="runtimes-missing">
            <summary>{t('onboarding.missing', { count: missing.length })}</summary>
            <span className="muted">{missing.map((r) => r.runtime).join(', ')}</span>
          </details>
        )}
      </div>
    ),
    start: (
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={() => act(() => api.group_start(groupId))}>
          {t('onboarding.step.start')}
        </button>
        {group.running && <span className="muted">{t('onboarding.noAgentRuns')}</span>}
      </div>
    ),
  };

  return (
    <section className="onboarding" aria-label={t('onboarding.title')}>
      <h2>{t('onboarding.title')}</h2>
      <ol>
        {steps.map((s, i) => (
          <li key={s.id} data-step={s.id} data-done={s.done || undefined} data-current={s.id === current || undefined}>
            <span className="step-mark" aria-hidden="true">
              {s.done ? '✓' : i + 1}
            </span>
            <div className="step-body">
              <span className="step-title">
                <strong>{t(`onboarding.step.${s.id}`)}</strong>
                {s.done && <span className="muted"> · {t('onboarding.done')}</span>}
              </span>
              {s.id === current && body[s.id]}
            </div>
          </li>
        ))}
      </ol>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
