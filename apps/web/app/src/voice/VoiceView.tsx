import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useLedgerStream } from '../api/use-ledger-stream';
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

  if (!state) return <section className="settings voice">{status ? <p className="form-error">{status.text}</p> : <p className="muted pad">Loading…</p>}</section>;
  const assistant = (state.assistant ?? {}) as Rec;
  const enabled = assistant.enabled === true;
  const actor = (((assistant.health ?? {}) as Rec).actor ?? {}) as Rec;
  const asks = (Array.isArray(assistant.ask_requests) ? assistant.ask_requests : []) as Rec[];
  const active = docs?.active_document_path;

  return (
    <section className="settings voice" aria-label="Voice Secretary">
      <label className="voice-enabled">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => void run(api.assistant_settings_update(groupId, 'voice_secretary', { enabled: e.target.checked }), e.target.checked ? 'Voice Secretary enabled.' : 'Voice Secretary disabled.')}
        />
        Voice Secretary enabled
      </label>
      <p className="muted voice-status">
        {str(assistant.lifecycle)} · actor voice-secretary: {actor.configured ? (actor.running ? 'running' : 'stopped') : 'none'}
        {state.new_input_available ? ' · new input waiting' : ''}
      </p>
      {status && <p className={status.ok ? 'form-ok' : 'form-error'} role="status">{status.text}</p>}

      <MeetingView groupId={groupId} assistant={assistant} models={(state.service_models ?? []) as Rec[]} onChanged={load} />

      <h3>Transcript</h3>
      <form
        className="voice-transcript-form"
        onSubmit={(e) => {
          e.preventDefault();
          const text = segment.trim();
          if (!text) return;
          void run(api.assistant_voice_transcript_append(groupId, { session_id: sessionId, text, flush: true, ...(active ? { document_path: active } : {}) }), 'Transcript appended.').then((ok) => ok && setSegment(''));
        }}
      >
        <textarea aria-label="Transcript segment" value={segment} onChange={(e) => setSegment(e.target.value)} rows={2} />
        <button type="submit" disabled={!enabled || !segment.trim()}>Append transcript</button>
      </form>
      <pre className="voice-transcript" aria-label="Session transcript">{str(session.transcript)}</pre>

      <h3>Documents</h3>
      <ul className="voice-documents">
        {(docs?.documents ?? []).map((d) => {
          const path = str(d.document_path);
          return (
            <li key={path} data-path={path} className={path === active ? 'active' : undefined}>
              <code>{path}</code> rev {String(d.revision_count)} · {String(d.content_chars)} chars {path === active ? <strong>(active)</strong> : <button onClick={() => void run(api.assistant_voice_document_save(groupId, { document_path: path }), `${path} is active.`)}>Select</button>}
            </li>
          );
        })}
      </ul>
      <form
        className="voice-new-document"
        onSubmit={(e) => {
          e.preventDefault();
          const path = newPath.trim();
          if (path) void run(api.assistant_voice_document_save(groupId, { document_path: path }), `${path} created.`).then((ok) => ok && setNewPath(''));
        }}
      >
        <input aria-label="New document path" placeholder="docs/voice-secretary/notes.md" value={newPath} onChange={(e) => setNewPath(e.target.value)} />
        <button type="submit" disabled={!newPath.trim()}>Create document</button>
      </form>

      <h3>Ask requests</h3>
      <form
        className="voice-ask-form"
        onSubmit={(e) => {
          e.preventDefault();
          const text = ask.trim();
          if (text) void run(api.assistant_voice_input_append(groupId, { kind: 'voice_instruction', instruction: text }), 'Asked.').then((ok) => ok && setAsk(''));
        }}
      >
        <input aria-label="Ask the secretary" value={ask} onChange={(e) => setAsk(e.target.value)} />
        <button type="submit" disabled={!enabled || !ask.trim()}>Ask</button>
      </form>
      <ul className="voice-asks">
        {asks.map((a) => (
          <li key={str(a.request_id)} data-status={str(a.status)}>
            <span className="voice-ask-status">{str(a.status)}</span> {str(a.instruction)}
            {str(a.reply_text) && <div className="voice-ask-reply">{str(a.reply_text)}</div>}
          </li>
        ))}
      </ul>
    </section>
  );
}
