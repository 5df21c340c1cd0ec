import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { cardQuestions, interactionResponse, permissionLine, type CardQuestion } from './headless-permissions';

type ControlState = Awaited<ReturnType<typeof api.headless_control_state>>['state'];

/**
 * A managed actor's pending requests (§8.9): permissions with Approve / Deny, questions
 * (kind `question`) with an answer per question and Send. Every answer names the session
 * generation it was read from, so a request of an earlier session is never answered. Re-read
 * whenever the actor's state changes (`version`).
 */
export function HeadlessPermissions({ groupId, actorId, version }: { groupId: string; actorId: string; version: string }) {
  const [state, setState] = useState<ControlState>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    api.headless_control_state(groupId, actorId).then(
      (r) => live && setState(r.state),
      () => live && setState(null),
    );
    return () => {
      live = false;
    };
  }, [groupId, actorId, version]);
  if (!state || state.permissions.length === 0) return null;
  const control = (body: { action: 'permission' | 'interaction'; request_id: string; allow?: boolean; response?: unknown }) => {
    setBusy(true);
    setNote(null);
    api.headless_control(groupId, actorId, { generation: state.generation, ...body }).then(
      (r) => setState(r.state),
      (e: unknown) => setNote(e instanceof Error ? e.message : String(e)),
    ).finally(() => setBusy(false));
  };
  return (
    <ul className="headless-permissions" aria-label={`Requests of ${actorId}`}>
      {state.permissions.map((p) => {
        const questions = cardQuestions(p);
        return questions.length > 0 ? (
          <li key={p.request_id}>
            <QuestionForm questions={questions} busy={busy} onSend={(response) => control({ action: 'interaction', request_id: p.request_id, response })} />
          </li>
        ) : (
          <li key={p.request_id}>
            <span>{permissionLine(p)}</span>
            <button type="button" disabled={busy} onClick={() => control({ action: 'permission', request_id: p.request_id, allow: true })}>Approve</button>
            <button type="button" disabled={busy} onClick={() => control({ action: 'permission', request_id: p.request_id, allow: false })}>Deny</button>
          </li>
        );
      })}
      {note && <li role="alert">{note}</li>}
    </ul>
  );
}

/** One question request: an option list (and free text where allowed) per question, sent at once. */
function QuestionForm({ questions, busy, onSend }: { questions: readonly CardQuestion[]; busy: boolean; onSend: (response: unknown) => void }) {
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const response = interactionResponse(questions, answers);
  const set = (id: string, value: string) => setAnswers((a) => ({ ...a, [id]: value }));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (response) onSend(response);
      }}
    >
      {questions.map((q) => (
        <label key={q.id}>
          <span>{q.text}</span>
          {q.options.length > 0 && (
            <select value={q.options.includes(answers[q.id] ?? '') ? answers[q.id] : ''} onChange={(e) => set(q.id, e.target.value)}>
              <option value="">Choose…</option>
              {q.options.map((o) => (
                <option key={o} value={o}>{o}</option>
              ))}
            </select>
          )}
          {q.other && <input type={q.secret ? 'password' : 'text'} placeholder={q.options.length > 0 ? 'or your own answer' : 'your answer'} onChange={(e) => set(q.id, e.target.value)} />}
        </label>
      ))}
      <button type="submit" disabled={busy || response === null}>Send answer</button>
    </form>
  );
}
