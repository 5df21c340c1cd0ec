import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useLedgerStream } from '../api/use-ledger-stream';
import { formatNumber } from '../i18n/format';
import { useI18n } from '../i18n/I18nProvider';
import { wordFor } from '../i18n/plain';
import { Rich } from '../i18n/Rich';
import { MeetingView } from './MeetingView';

type State = RouteResult<'assistant_state'>;
type Docs = RouteResult<'assistant_voice_document_list'>;
type Rec = Record<string, unknown>;

const errorText = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);
const KINDS = ['assistant.settings.update', 'assistant.status.update', 'assistant.voice.document', 'assistant.voice.request', 'system.notify'] as const;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The Voice tab (issue 26): enable / disable the Voice Secretary (its hidden actor comes from the
 * foreman), append transcript text to this tab's recording session (what browser ASR sends), the
 * working documents with the active one, and Ask requests with the secretary's replies. Speech
 * recognition itself is not here: transcript text is typed or pasted.
 */
export function VoiceView({ groupId }: { groupId: string }) {
  const { t, locale } = useI18n();
  const sessionId = useMemo(() => `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, []);
  const [state, setState] = useState<State | null>(null);
  const [docs, setDocs] = useState<Docs | null>(null);
  const [session, setSession] = useState<Rec>({});
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [segment, setSegment] = useState('');
  const [ask, setAsk] = useState('');
  const [newPath, setNewPath] = useState('');

  const load = useCallback(() => {
    api.assistant_state(groupId, { assistant_id: 'voice_secretary' }).then(setState, (e: Error) => setStatus({ ok: false, text: errorText(e) }));
    api.assistant_voice_document_list(groupId, {}).then(setDocs, () => undefined);
    api.assistant_state(groupId, { view: 'voice_session', session_id: sessionId }).then((r) => setSession((r.session ?? {}) as Rec), () => undefined);
  }, [groupId, sessionId]);
  useEffect(load, [load]);
  useLedgerStream(groupId, KINDS, load);

  const run = <T,>(p: Promise<T>, done: string) =>
    p.then(
      () => {
        setStatus({ ok: true, text: done });
        load();
        return true;
      },
      (e: Error) => {
        setStatus({ ok: false, text: errorText(e) });
        return false;
      },
    );

  if (!state) return <section className="settings voice">{status ? <p className="form-error">{status.text}</p> : <p className="muted pad">{t('app.loading')}</p>}</section>;
  const assistant = (state.assistant ?? {}) as Rec;
  const enabled = assistant.enabled === true;
  const actor = (((assistant.health ?? {}) as Rec).actor ?? {}) as Rec;
  const asks = (Array.isArray(assistant.ask_requests) ? assistant.ask_requests : []) as Rec[];
  const active = docs?.active_document_path;

  return (
    <section className="settings voice" aria-label={t('voice.aria')}>
      <label className="voice-enabled">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => void run(api.assistant_settings_update(groupId, 'voice_secretary', { enabled: e.target.checked }), t(e.target.checked ? 'voice.enabledDone' : 'voice.disabledDone'))}
        />
        {t('voice.enabledLabel')}
      </label>
      <p className="muted voice-status">
        {wordFor(t, 'voice.lifecycle', str(assistant.lifecycle))} ·{' '}
        <Rich text={t('voice.actorState', { state: t(actor.configured ? (actor.running ? 'voice.actor.running' : 'voice.actor.stopped') : 'voice.actor.none') })} parts={{ actor: <code>voice-secretary</code> }} />
        {state.new_input_available ? ` · ${t('voice.newInput')}` : ''}
      </p>
      {status && <p className={status.ok ? 'form-ok' : 'form-error'} role="status">{status.text}</p>}

      <MeetingView groupId={groupId} assistant={assistant} models={(state.service_models ?? []) as Rec[]} onChanged={load} />

      <h3>{t('voice.transcript')}</h3>
      <form
        className="voice-transcript-form"
        onSubmit={(e) => {
          e.preventDefault();
          const text = segment.trim();
          if (!text) return;
          void run(api.assistant_voice_transcript_append(groupId, { session_id: sessionId, text, flush: true, ...(active ? { document_path: active } : {}) }), t('voice.appended')).then((ok) => ok && setSegment(''));
        }}
      >
        <textarea aria-label={t('voice.segmentAria')} value={segment} onChange={(e) => setSegment(e.target.value)} rows={2} />
        <button type="submit" disabled={!enabled || !segment.trim()}>{t('voice.append')}</button>
      </form>
      <section aria-label={t('voice.sessionTranscriptAria')}>
        <pre className="voice-transcript">{str(session.transcript)}</pre>
      </section>

      <h3>{t('voice.documents')}</h3>
      <ul className="voice-documents">
        {(docs?.documents ?? []).map((d) => {
          const path = str(d.document_path);
          return (
            <li key={path} data-path={path} className={path === active ? 'active' : undefined}>
              <code>{path}</code> {t('voice.docMeta', { revisions: formatNumber(locale, Number(d.revision_count)), chars: formatNumber(locale, Number(d.content_chars)) })}{' '}
              {path === active ? <strong>{t('voice.active')}</strong> : <button onClick={() => void run(api.assistant_voice_document_save(groupId, { document_path: path }), t('voice.nowActive', { path }))}>{t('voice.select')}</button>}
            </li>
          );
        })}
      </ul>
      <form
        className="voice-new-document"
        onSubmit={(e) => {
          e.preventDefault();
          const path = newPath.trim();
          if (path) void run(api.assistant_voice_document_save(groupId, { document_path: path }), t('voice.created', { path })).then((ok) => ok && setNewPath(''));
        }}
      >
        <input aria-label={t('voice.newDocAria')} placeholder="docs/voice-secretary/notes.md" value={newPath} onChange={(e) => setNewPath(e.target.value)} />
        <button type="submit" disabled={!newPath.trim()}>{t('voice.createDoc')}</button>
      </form>

      <h3>{t('voice.asks')}</h3>
      <form
        className="voice-ask-form"
        onSubmit={(e) => {
          e.preventDefault();
          const text = ask.trim();
          if (text) void run(api.assistant_voice_input_append(groupId, { kind: 'voice_instruction', instruction: text }), t('voice.asked')).then((ok) => ok && setAsk(''));
        }}
      >
        <input aria-label={t('voice.askAria')} value={ask} onChange={(e) => setAsk(e.target.value)} />
        <button type="submit" disabled={!enabled || !ask.trim()}>{t('voice.ask')}</button>
      </form>
      <ul className="voice-asks">
        {asks.map((a) => (
          <li key={str(a.request_id)} data-status={str(a.status)}>
            <span className="voice-ask-status">{wordFor(t, 'voice.askStatus', str(a.status))}</span> {str(a.instruction)}
            {str(a.reply_text) && <div className="voice-ask-reply">{str(a.reply_text)}</div>}
          </li>
        ))}
      </ul>
    </section>
  );
}
