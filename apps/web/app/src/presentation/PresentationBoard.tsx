import { useCallback, useEffect, useState } from 'react';
import { api, routeUrl, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useLedgerStream } from '../api/use-ledger-stream';
import { MessageText } from '../chat/MessageText';
import { useI18n, useT } from '../i18n/I18nProvider';
import { formatDateTime } from '../i18n/format';

type Snapshot = RouteResult<'presentation'>['presentation'];
type Card = NonNullable<Snapshot['slots'][number]['card']>;

/** The ledger kinds that change the board (each publish/clear is one event, §8.13). */
export const PRESENTATION_KINDS = ['presentation.publish', 'presentation.clear'] as const;

const errorText = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

/**
 * A group's presentation board: the four slots agents publish results to, read from
 * `presentation_get` and reloaded on every presentation event of the group's live stream. The
 * highlighted slot (the latest publish) is marked.
 */
export function PresentationBoard({ groupId }: { groupId: string }) {
  const t = useT();
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api.presentation(groupId).then(
      (r) => {
        setSnapshot(r.presentation);
        setError(null);
      },
      (e: Error) => setError(errorText(e)),
    );
  }, [groupId]);
  useEffect(load, [load]);
  useLedgerStream(groupId, PRESENTATION_KINDS, load);

  if (!snapshot) return <section className="board">{error ? <p className="form-error">{error}</p> : <p className="muted pad">{t('app.loading')}</p>}</section>;
  const clear = (slot: Card['slot_id']) => api.presentation_clear(groupId, { slot }).then(load, (e: Error) => setError(errorText(e)));
  return (
    <section className="board" aria-label={t('board.title')}>
      {error && <p className="form-error">{error}</p>}
      <div className="board-grid">
        {snapshot.slots.map((slot) => (
          <article key={slot.slot_id} className="board-slot" aria-label={slot.slot_id} data-highlight={snapshot.highlight_slot_id === slot.slot_id || undefined} data-empty={!slot.card || undefined}>
            <header className="board-slot-head">
              <span className="muted">{slot.slot_id}</span>
              {slot.card && (
                <>
                  <strong className="board-title">{slot.card.title}</strong>
                  <span className="state-badge">{slot.card.card_type}</span>
                  <button type="button" onClick={() => void clear(slot.slot_id)} aria-label={t('board.clearSlot', { slot: slot.slot_id })}>
                    {t('board.clear')}
                  </button>
                </>
              )}
            </header>
            {slot.card ? <CardBody groupId={groupId} card={slot.card} /> : <p className="muted">{t('board.empty')}</p>}
          </article>
        ))}
      </div>
    </section>
  );
}

function CardBody({ groupId, card }: { groupId: string; card: Card }) {
  const { t, locale } = useI18n();
  const { content } = card;
  return (
    <div className="board-body">
      {card.summary && <p className="board-summary">{card.summary}</p>}
      {content.markdown !== undefined && <MessageText text={content.markdown} raw={false} />}
      {content.table && (
        <div className="board-table-wrap">
          <table className="board-table">
            <thead>
              <tr>{content.table.columns.map((c, i) => <th key={i}>{c}</th>)}</tr>
            </thead>
            <tbody>
              {content.table.rows.map((row, i) => (
                <tr key={i}>{row.map((cell, j) => <td key={j}>{cell}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {content.url && (
        <a href={content.url} target="_blank" rel="noopener noreferrer">
          {content.file_name || content.url}
        </a>
      )}
      {content.blob_rel_path && (
        <a href={routeUrl('blob', groupId, content.blob_rel_path.split('/').pop() ?? content.blob_rel_path)} target="_blank" rel="noopener noreferrer">
          {content.file_name || content.blob_rel_path}
        </a>
      )}
      {content.workspace_rel_path && (
        <p>
          {t('board.workspaceFile')} <code>{content.workspace_rel_path}</code>
        </p>
      )}
      <footer className="muted board-meta">
        {t('board.publishedBy', { by: card.published_by, at: formatDateTime(locale, card.published_at) })}
        {card.source_label && ` · ${card.source_label}`}
      </footer>
    </div>
  );
}
