import { useCallback, useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { formatNumber } from '../i18n/format';
import { useI18n } from '../i18n/I18nProvider';
import { wordFor } from '../i18n/plain';
import { Rich } from '../i18n/Rich';
import { ScrollTable } from '../ui/ScrollTable';

type Lane = 'work' | 'memory';
type Status = RouteResult<'space_status'>;
type Query = RouteResult<'space_query'>;
type Reference = { citation: number; source_id: string; title: string; origin?: string; snippet?: string };
type Row = Record<string, unknown>;

const message = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

/** An FTS5 snippet with its `**` markers as highlighted words. */
function Snippet({ text }: { text: string }) {
  return <span className="space-snippet">{text.split('**').map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>))}</span>;
}

/** An answer whose `[n]` markers link to the numbered references below it. */
function CitedAnswer({ answer }: { answer: string }) {
  return (
    <p className="space-answer">
      {answer.split(/(\[\d+\])/).map((part, i) => {
        const m = /^\[(\d+)\]$/.exec(part);
        return m ? (
          <a key={i} className="space-cite" href={`#space-ref-${m[1]}`}>
            [{m[1]}]
          </a>
        ) : (
          <span key={i}>{part}</span>
        );
      })}
    </p>
  );
}

/**
 * The group's Group Space (§8.18): both lanes' bindings with the provider state, the selected
 * lane's sources and jobs, a text-source form for the work lane, and a query box whose answers
 * cite their sources.
 */
export function SpaceView({ groupId }: { groupId: string }) {
  const { t, locale } = useI18n();
  const laneName = (l: Lane) => t(l === 'work' ? 'space.laneName.work' : 'space.laneName.memory');
  const num = (n: number) => formatNumber(locale, n);
  const [lane, setLane] = useState<Lane>('work');
  const [status, setStatus] = useState<Status | null>(null);
  const [sources, setSources] = useState<Row[] | null>(null);
  const [jobs, setJobs] = useState<Row[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState<Query | null>(null);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const st = await api.space_status(groupId);
      setStatus(st);
      setJobs(((await api.space_jobs(groupId, { lane, limit: 20 })).jobs ?? []) as Row[]);
      setSources(st.bindings[lane].status === 'bound' ? (((await api.space_sources(groupId, { lane })).sources ?? []) as Row[]) : null);
      setError(null);
    } catch (e) {
      setError(message(e as Error));
    }
  }, [groupId, lane]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      setError(null);
    } catch (e) {
      setError(message(e as Error));
    }
    setBusy(false);
    await refresh();
  };

  const binding = status?.bindings[lane];
  const bound = binding?.status === 'bound';

  return (
    <section className="space-view">
      <div className="space-lanes" role="radiogroup" aria-label={t('space.laneAria')}>
        {(['work', 'memory'] as const).map((l) => (
          <button key={l} role="radio" aria-checked={lane === l} onClick={() => setLane(l)}>
            {t(l === 'work' ? 'space.lane.work' : 'space.lane.memory')}
          </button>
        ))}
      </div>
      {status && (
        <p className="space-provider" data-mode={status.provider.mode}>
          <Rich text={t('space.provider', { mode: wordFor(t, 'space.mode', status.provider.mode) })} parts={{ provider: <strong data-daemon-text>{status.provider.provider}</strong> }} />
          {status.provider.readiness_reason ? <span data-daemon-text> ({status.provider.readiness_reason})</span> : ''}
        </p>
      )}
      <ScrollTable className="space-bindings" label={t('space.bindingsAria')} columns={[t('space.col.lane'), t('space.col.provider'), t('space.col.space'), t('space.col.status'), t('space.col.queue')]}>
        {status &&
          (['work', 'memory'] as const).map((l) => (
            <tr key={l} data-lane={l}>
              <td>{laneName(l)}</td>
              <td data-daemon-text>{status.bindings[l].provider}</td>
              <td>
                <code>{status.bindings[l].remote_space_id || '—'}</code>
              </td>
              <td className="space-binding-status">{wordFor(t, 'space.binding', status.bindings[l].status)}</td>
              <td>
                {t('space.queue', { pending: num(status.queue_summary[l].pending), running: num(status.queue_summary[l].running), failed: num(status.queue_summary[l].failed) })}
              </td>
            </tr>
          ))}
      </ScrollTable>
      <div className="space-actions">
        {bound ? (
          <button disabled={busy} onClick={() => void run(() => api.space_bind(groupId, { lane, action: 'unbind' }))}>
            {t('space.unbind', { lane: laneName(lane) })}
          </button>
        ) : (
          <button disabled={busy} onClick={() => void run(() => api.space_bind(groupId, { lane, provider: 'local', action: 'bind' }))}>
            {t('space.bindLocal', { lane: laneName(lane) })}
          </button>
        )}
        {bound && lane === 'work' && (
          <button disabled={busy} onClick={() => void run(() => api.space_ingest(groupId, { lane, payload: { source_type: 'space_folder' } }))}>
            <Rich text={t('space.ingestFolder')} parts={{ folder: <code>space/</code> }} />
          </button>
        )}
      </div>
      {error && <p className="error">{error}</p>}

      {bound && lane === 'work' && (
        <form
          className="space-add"
          onSubmit={(e) => {
            e.preventDefault();
            if (!content.trim()) return;
            void run(async () => {
              await api.space_ingest(groupId, { lane, payload: { source_type: 'text', title: title.trim() || undefined, content } });
              setTitle('');
              setContent('');
            });
          }}
        >
          <input aria-label={t('space.sourceTitleAria')} placeholder={t('space.titlePlaceholder')} value={title} onChange={(e) => setTitle(e.target.value)} />
          <textarea aria-label={t('space.sourceTextAria')} placeholder={t('space.textPlaceholder')} value={content} onChange={(e) => setContent(e.target.value)} />
          <button type="submit" disabled={busy || !content.trim()}>
            {t('space.addSource')}
          </button>
        </form>
      )}

      <form
        className="space-query"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const q = question.trim();
          if (!q) return;
          setBusy(true);
          api.space_query(groupId, { lane, query: q }).then(
            (r) => {
              setAnswer(r);
              setError(null);
              setBusy(false);
            },
            (err: Error) => {
              setError(message(err));
              setBusy(false);
            },
          );
        }}
      >
        <input aria-label={t('space.askAria')} placeholder={t('space.askPlaceholder', { lane: laneName(lane) })} value={question} onChange={(e) => setQuestion(e.target.value)} />
        <button type="submit" disabled={busy || !question.trim()}>
          {t('space.ask')}
        </button>
      </form>
      {answer && (
        <div className="space-result" data-degraded={answer.degraded}>
          {answer.degraded ? (
            <p className="empty">{t('space.noAnswer', { lane: laneName(answer.lane), status: wordFor(t, 'space.binding', answer.binding_status), mode: wordFor(t, 'space.mode', answer.provider_mode) })}</p>
          ) : answer.reference_count === 0 ? (
            <p className="empty">{t('space.noMatch', { query: question.trim() })}</p>
          ) : (
            <>
              <CitedAnswer answer={answer.answer} />
              <ol className="space-references">
                {(answer.references as Reference[]).map((r) => (
                  <li key={r.citation} id={`space-ref-${r.citation}`} data-source-id={r.source_id}>
                    <strong className="space-ref-title">{r.title}</strong> {r.snippet && <Snippet text={r.snippet} />}
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      )}

      {sources && (
        <>
          <h3>{t('space.sources', { count: num(sources.length) })}</h3>
          <ul className="space-sources">
            {sources.map((s) => (
              <li key={String(s.source_id)} data-source-id={String(s.source_id)}>
                <span className="space-source-title">{String(s.title)}</span> <code className="space-source-type">{String(s.source_type)}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>{t('space.jobs')}</h3>
      {jobs.length === 0 ? (
        <p className="empty">{t('space.noJobs', { lane: laneName(lane) })}</p>
      ) : (
        <ul className="space-jobs">
          {jobs.map((j) => (
            <li key={String(j.job_id)} data-state={String(j.state)}>
              <code>{String(j.job_id)}</code> <code>{String(j.kind)}</code> <span className="space-job-state">{wordFor(t, 'space.job', String(j.state))}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
