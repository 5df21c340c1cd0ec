import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useLedgerStream } from '../api/use-ledger-stream';
import { formatNumber } from '../i18n/format';
import { useI18n } from '../i18n/I18nProvider';
import { wordFor } from '../i18n/plain';
import { Rich } from '../i18n/Rich';
import { browserAsrAvailable, startBrowserAsr } from './browser-asr';
import { startMicCapture, type MicCapture } from './mic-capture';
import { openServiceSocket, type ServiceSocket } from './service-asr-socket';
import './meeting.css';

type Docs = RouteResult<'assistant_voice_document_list'>;
type Rec = Record<string, unknown>;
type Phase = 'idle' | 'starting' | 'recording' | 'stopping';

const KINDS = ['assistant.voice.document', 'assistant.settings.update'] as const;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const errorText = (e: unknown) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e));
const HEARTBEAT_MS = 10_000;

/** This browser's stable lease owner (one per tab session), as the spec's owner_id. */
function ownerId(): string {
  const key = 'cccc.voice.owner';
  let id = sessionStorage.getItem(key);
  if (!id) sessionStorage.setItem(key, (id = `web-${crypto.randomUUID()}`));
  return id;
}

/**
 * The meeting view (issue 27): record under the daemon's recording lease, the live transcript as
 * the daemon holds it, and the working document beside it with the document list and archive.
 * With browser_asr the browser recognizes speech and the view appends each final phrase; with
 * assistant_service_local_asr the microphone's PCM goes to the transcription WebSocket and the
 * daemon host recognizes and appends.
 */
export function MeetingView({ groupId, assistant, models = [], onChanged }: { groupId: string; assistant: Rec; models?: readonly Rec[]; onChanged?: () => void }) {
  const { t, locale } = useI18n();
  const owner = useMemo(ownerId, []);
  const config = (assistant.config ?? {}) as Rec;
  const backend = str(config.recognition_backend);
  const service = (((assistant.health ?? {}) as Rec).service ?? {}) as Rec;
  const [docs, setDocs] = useState<Docs | null>(null);
  const [archived, setArchived] = useState<Docs | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState('');
  const [partial, setPartial] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [session, setSession] = useState<Rec>({});
  const [level, setLevel] = useState(0);
  const [installing, setInstalling] = useState('');
  const live = useRef<{ lease_id?: string; mic?: MicCapture; stopAsr?: () => Promise<void> | void; beat?: number; meter?: number; seq: number }>({ seq: 0 });

  const load = useCallback(() => {
    api.assistant_voice_document_list(groupId, {}).then(setDocs, () => undefined);
    api.assistant_voice_document_list(groupId, { include_archived: true }).then(setArchived, () => undefined);
    if (sessionId) api.assistant_state(groupId, { view: 'voice_session', session_id: sessionId }).then((r) => setSession((r.session ?? {}) as Rec), () => undefined);
  }, [groupId, sessionId]);
  useEffect(load, [load]);
  useLedgerStream(groupId, KINDS, load);

  const active = docs?.active_document_path;
  const activeDoc = (docs?.documents ?? []).find((d) => str(d.document_path) === active);

  const teardown = async () => {
    const l = live.current;
    window.clearInterval(l.beat);
    window.clearInterval(l.meter);
    await Promise.resolve(l.stopAsr?.()).catch(() => undefined);
    l.mic?.stop();
    if (l.lease_id) await api.assistant_voice_recording_lease(groupId, { action: 'release', owner_id: owner, lease_id: l.lease_id }).catch(() => undefined);
    live.current = { seq: l.seq };
  };

  const appendBrowserFinal = (sid: string, text: string) => {
    const segment_id = `b${String(++live.current.seq).padStart(4, '0')}`;
    api
      .assistant_voice_transcript_append(groupId, {
        session_id: sid,
        segment_id,
        text,
        is_final: true,
        flush: true,
        ...(active ? { document_path: active } : {}),
        trigger: { trigger_kind: 'meeting_window', mode: 'meeting', capture_mode: 'browser', recognition_backend: 'browser_asr' },
      })
      .then(load, (e: unknown) => setError(errorText(e)));
  };

  const start = async () => {
    setError('');
    setPartial('');
    setPhase('starting');
    const sid = `meet-${Date.now().toString(36)}`;
    const useService = backend === 'assistant_service_local_asr';
    try {
      if (!useService && !browserAsrAvailable()) throw new Error(t('meeting.noBrowserAsr'));
      const lease = await api.assistant_voice_recording_lease(groupId, {
        action: 'acquire',
        owner_id: owner,
        capture_mode: useService ? 'service' : 'browser',
        recognition_backend: useService ? 'assistant_service_local_asr' : 'browser_asr',
        dispatch_target: 'document',
      });
      live.current.lease_id = lease.lease_id;
      live.current.beat = window.setInterval(() => {
        api.assistant_voice_recording_lease(groupId, { action: 'heartbeat', owner_id: owner, lease_id: live.current.lease_id }).then(
          (r) => r.lost && (setError(t('meeting.leaseLost')), void stop()),
          () => undefined,
        );
      }, HEARTBEAT_MS);
      if (useService) {
        let socket: ServiceSocket | undefined;
        socket = await openServiceSocket(
          groupId,
          { owner_id: owner, lease_id: lease.lease_id! },
          { session_id: sid, capture_mode: 'service', recognition_backend: 'assistant_service_local_asr', dispatch_target: 'document', ...(active ? { document_path: active } : {}), language: str(config.recognition_language) || 'auto' },
          { partial: setPartial, final: () => (setPartial(''), load()), error: (code, message) => setError(`${code}: ${message}`) },
        );
        live.current.stopAsr = () => socket?.stop();
        live.current.mic = await startMicCapture((frame) => socket?.send(frame));
      } else {
        live.current.mic = await startMicCapture();
        const rec = startBrowserAsr(str(config.recognition_language) || 'auto', {
          partial: setPartial,
          final: (text) => (setPartial(''), appendBrowserFinal(sid, text)),
          error: (code) => setError(t('meeting.browserAsrError', { code })),
        });
        live.current.stopAsr = () => rec.stop();
      }
      live.current.meter = window.setInterval(() => setLevel(live.current.mic?.level() ?? 0), 200);
      setSessionId(sid);
      setPhase('recording');
    } catch (e) {
      setError(errorText(e));
      await teardown();
      setPhase('idle');
    }
  };

  const stop = async () => {
    setPhase('stopping');
    await teardown();
    setPartial('');
    setLevel(0);
    setPhase('idle');
    load();
  };
  useEffect(() => () => void teardown(), []); // release the lease when the view goes away

  const missing = (Array.isArray(service.missing) ? service.missing : []) as Rec[];
  const segments = (Array.isArray(session.segments) ? session.segments : []) as Rec[];
  const archivedDocs = (archived?.documents ?? []).filter((d) => str(d.status) === 'archived');

  return (
    <section className="voice-meeting" aria-label={t('meeting.title')}>
      <h3>{t('meeting.title')}</h3>
      <p className="muted voice-asr-backend">
        {t('meeting.recognition', { backend: wordFor(t, 'meeting.backend', backend) })}
        {backend === 'assistant_service_local_asr' && ` · ${wordFor(t, 'meeting.service', str(service.status))}`}
      </p>
      {backend === 'assistant_service_local_asr' && missing.length > 0 && (
        <ul className="voice-asr-missing" aria-label={t('meeting.problemsAria')}>
          {missing.map((m, i) => (
            <li key={i}>
              <code>{str(m.code)}</code> <span data-daemon-text>{str(m.message)}</span>
            </li>
          ))}
        </ul>
      )}
      {backend === 'assistant_service_local_asr' && (
        <ul className="voice-asr-models" aria-label={t('meeting.modelsAria')}>
          {models.map((m) => {
            const id = str(m.model_id);
            const status = str(m.status);
            return (
              <li key={id} data-model-id={id} data-status={status}>
                <code>{id}</code> {wordFor(t, 'meeting.model', status)}
                {/* The manifest's title says what a model is (e.g. a synthetic test model, not speech recognition). */}
                {m.title ? <span className="muted" data-daemon-text> · {str(m.title)}</span> : null}
                {m.error ? <code> ({str((m.error as Rec).code)})</code> : ''}
                {(status === 'not_installed' || status === 'failed' || m.update_available === true) && (
                  <button
                    disabled={installing !== ''}
                    onClick={() => {
                      setInstalling(id);
                      api
                        .assistant_voice_model_install(groupId, { model_id: id })
                        .then(() => onChanged?.(), (e: unknown) => setError(errorText(e)))
                        .finally(() => setInstalling(''));
                    }}
                  >
                    {t(installing === id ? 'meeting.installing' : m.update_available === true ? 'meeting.update' : 'meeting.install')}
                  </button>
                )}
              </li>
            );
          })}
          {models.length === 0 && <li className="muted">
              <Rich text={t('meeting.noModel')} parts={{ path: <code>CCCC_HOME/config/voice-models.json</code> }} />
            </li>}
        </ul>
      )}
      <div className="voice-meeting-controls">
        {phase === 'recording' || phase === 'stopping' ? (
          <button onClick={() => void stop()} disabled={phase === 'stopping'}>{t('meeting.stop')}</button>
        ) : (
          <button onClick={() => void start()} disabled={phase === 'starting' || assistant.enabled !== true}>{t('meeting.start')}</button>
        )}
        <meter aria-label={t('meeting.micAria')} min={0} max={0.5} value={level} data-level={level.toFixed(4)} />
        <span className="muted" role="status" aria-label={t('meeting.stateAria')} data-phase={phase}>
          {t(`meeting.phase.${phase}`)}
        </span>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="voice-meeting-panes">
        <div className="voice-meeting-transcript">
          <h4>{t('meeting.live')}</h4>
          <ol aria-label={t('meeting.transcriptAria')}>
            {segments.map((s, i) => (
              <li key={str(s.segment_id) || i} data-segment-id={str(s.segment_id)}>{str(s.text)}</li>
            ))}
            {partial && <li className="muted voice-partial" aria-label={t('meeting.partialAria')}>{partial}</li>}
          </ol>
        </div>
        <div className="voice-meeting-document">
          <h4>
            {t('meeting.workingDoc')} {active && <code>{active}</code>}
          </h4>
          <section aria-label={t('meeting.workingDoc')}>
            <pre>{str(activeDoc?.content)}</pre>
          </section>
          <ul className="voice-meeting-documents" aria-label={t('meeting.documentsAria')}>
            {(docs?.documents ?? []).map((d) => {
              const path = str(d.document_path);
              return (
                <li key={path} data-path={path}>
                  <code>{path}</code>
                  {path !== active && <button onClick={() => void api.assistant_voice_document_save(groupId, { document_path: path }).then(load, (e: unknown) => setError(errorText(e)))}>{t('meeting.open')}</button>}
                  <button onClick={() => void api.assistant_voice_document_archive(groupId, { document_path: path }).then(load, (e: unknown) => setError(errorText(e)))}>{t('meeting.archive')}</button>
                </li>
              );
            })}
          </ul>
          {archivedDocs.length > 0 && (
            <details className="voice-archive">
              <summary>{t('meeting.archiveCount', { count: formatNumber(locale, archivedDocs.length) })}</summary>
              <ul aria-label={t('meeting.archivedAria')}>
                {archivedDocs.map((d) => (
                  <li key={str(d.document_path)}>
                    <code>{str(d.document_path)}</code>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      </div>
    </section>
  );
}
