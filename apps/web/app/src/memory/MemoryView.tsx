import { useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useI18n } from '../i18n/I18nProvider';
import { formatNumber } from '../i18n/format';

type Search = RouteResult<'memory_reme_search'>;

/** Split an FTS5 snippet on its `**` markers: odd parts are the matched words. */
function Snippet({ text }: { text: string }) {
  return (
    <span className="memory-snippet">
      {text.split('**').map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>))}
    </span>
  );
}

/**
 * The group's memory (MEMORY.md and the daily files), searched full text through
 * memory_reme_search: best hit first, with its file, line range, score and snippet.
 */
export function MemoryView({ groupId }: { groupId: string }) {
  const { t, locale } = useI18n();
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<Search | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const search = () => {
    const q = query.trim();
    if (!q) return;
    setBusy(true);
    api.memory_reme_search(groupId, { query: q, max_results: 20 }).then(
      (r) => {
        setResult(r);
        setError(null);
        setBusy(false);
      },
      (e: Error) => {
        setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);
        setBusy(false);
      },
    );
  };

  return (
    <section className="memory-view">
      <form
        className="memory-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          search();
        }}
      >
        <input aria-label={t('memory.search')} placeholder={t('memory.placeholder')} value={query} onChange={(e) => setQuery(e.target.value)} />
        <button type="submit" disabled={busy || !query.trim()}>{t('memory.submit')}</button>
      </form>
      {error && <p className="error">{error}</p>}
      {result && result.count === 0 && <p className="empty">{t('memory.none', { query: query.trim() })}</p>}
      {result && result.count > 0 && (
        <ol className="memory-hits">
          {result.hits.map((h) => (
            <li key={`${h.path}:${h.start_line}`} data-path={h.path}>
              <div className="memory-hit-where">
                <code>{h.path.split('/state/memory/')[1] ?? h.path}</code> {t('memory.lines', { start: h.start_line, end: h.end_line })}
                <span className="memory-hit-score"> {t('memory.score', { score: formatNumber(locale, h.score, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) })}</span>
              </div>
              <Snippet text={h.snippet} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
