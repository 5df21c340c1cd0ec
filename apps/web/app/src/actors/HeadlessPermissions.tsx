import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { cardQuestions, interactionResponse, permissionLine, type CardQuestion } from './headless-permissions';
import { acceptResponse, cardElicitation, type CardElicitation } from './headless-elicitation';
import { cursorAnswer, cursorPlan, cursorQuestions, type CursorCardQuestion } from './headless-cursor';
import { useT } from '../i18n/I18nProvider';

type ControlState = Awaited<ReturnType<typeof api.headless_control_state>>['state'];

/** How often a waiting managed actor's pending requests are re-read. */
const REREAD_MS = 2_000;

/**
 * A managed actor's pending requests (§8.9): permissions with Approve / Deny, questions
 * (kind `question`) with an answer per question and Send, MCP elicitations (kind `elicitation`)
 * with their form and Accept / Decline. Every answer names the session
 * generation it was read from, so a request of an earlier session is never answered. Re-read
 * whenever the actor's state changes (`version`), and every couple of seconds while shown (the
 * card shows it while the actor waits): a second request within one wait (codex's own tool
 * approval, then the MCP server's question) leaves the working state, and `version`, as it was.
 */
export function HeadlessPermissions({ groupId, actorId, version }: { groupId: string; actorId: string; version: string }) {
  const t = useT();
  const [state, setState] = useState<ControlState>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let current = true;
    const read = () =>
      api.headless_control_state(groupId, actorId).then(
        (r) => current && setState(r.state),
        () => current && setState(null),
      );
    void read();
    const timer = setInterval(() => void read(), REREAD_MS);
    return () => {
      current = false;
      clearInterval(timer);
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
    <ul className="headless-permissions" aria-label={t('headless.requestsOf', { actor: actorId })}>
      {state.permissions.map((p) => {
        const questions = cardQuestions(p);
        const elicitation = cardElicitation(p);
        const send = (response: unknown) => control({ action: 'interaction', request_id: p.request_id, response });
        const cursorAsked = cursorQuestions(p);
        if (cursorAsked.length > 0) {
          return (
            <li key={p.request_id}>
              <CursorQuestionForm title={typeof p.summary.title === 'string' ? p.summary.title : ''} questions={cursorAsked} busy={busy} onSend={send} />
            </li>
          );
        }
        const plan = cursorPlan(p);
        if (plan) {
          return (
            <li key={p.request_id}>
              <span>{t('headless.plan')}{plan.name ? `: ${plan.name}` : ''}{plan.overview ? ` (${plan.overview})` : ''}</span>
              <pre>{plan.plan}</pre>
              <button type="button" disabled={busy} onClick={() => send({ outcome: 'accepted' })}>{t('headless.acceptPlan')}</button>
              <button type="button" disabled={busy} onClick={() => send({ outcome: 'rejected' })}>{t('headless.rejectPlan')}</button>
            </li>
          );
        }
        if (elicitation) {
          return (
            <li key={p.request_id}>
              <ElicitationForm elicitation={elicitation} busy={busy} onSend={(response) => control({ action: 'interaction', request_id: p.request_id, response })} />
            </li>
          );
        }
        return questions.length > 0 ? (
          <li key={p.request_id}>
            <QuestionForm questions={questions} busy={busy} onSend={(response) => control({ action: 'interaction', request_id: p.request_id, response })} />
          </li>
        ) : (
          <li key={p.request_id}>
            <span>{permissionLine(p, t)}</span>
            <button type="button" disabled={busy} onClick={() => control({ action: 'permission', request_id: p.request_id, allow: true })}>{t('headless.approve')}</button>
            <button type="button" disabled={busy} onClick={() => control({ action: 'permission', request_id: p.request_id, allow: false })}>{t('headless.deny')}</button>
          </li>
        );
      })}
      {note && <li role="alert">{note}</li>}
    </ul>
  );
}

/** One question request: an option list (and free text where allowed) per question, sent at once. */
function QuestionForm({ questions, busy, onSend }: { questions: readonly CardQuestion[]; busy: boolean; onSend: (response: unknown) => void }) {
  const t = useT();
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
              <option value="">{t('headless.choose')}</option>
              {q.options.map((o) => (
                <option key={o} value={o}>{o}</option>
              ))}
            </select>
          )}
          {q.other && <input type={q.secret ? 'password' : 'text'} placeholder={q.options.length > 0 ? 'or your own answer' : 'your answer'} onChange={(e) => set(q.id, e.target.value)} />}
        </label>
      ))}
      <button type="submit" disabled={busy || response === null}>{t('headless.sendAnswer')}</button>
    </form>
  );
}

/** One MCP elicitation: the server's message, its form (or URL), Accept / Decline. */
function ElicitationForm({ elicitation, busy, onSend }: { elicitation: CardElicitation; busy: boolean; onSend: (response: unknown) => void }) {
  const t = useT();
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const accept = acceptResponse(elicitation, values);
  const set = (name: string, value: string | boolean) => setValues((v) => ({ ...v, [name]: value }));
  return (
    <form
      aria-label={t('headless.requestOf', { server: elicitation.server })}
      onSubmit={(e) => {
        e.preventDefault();
        if (accept) onSend(accept);
      }}
    >
      <span>{elicitation.server}: {elicitation.message}</span>
      {elicitation.url !== null && <a href={elicitation.url} target="_blank" rel="noreferrer noopener">{elicitation.url}</a>}
      {elicitation.fields.map((f) => (
        <label key={f.name}>
          <span>{f.label}{f.required ? ' *' : ''}</span>
          {f.kind === 'choice' ? (
            <select value={typeof values[f.name] === 'string' ? (values[f.name] as string) : ''} onChange={(e) => set(f.name, e.target.value)}>
              <option value="">{t('headless.choose')}</option>
              {f.options.map((o) => (
                <option key={o} value={o}>{o}</option>
              ))}
            </select>
          ) : f.kind === 'boolean' ? (
            <input type="checkbox" checked={values[f.name] === true} onChange={(e) => set(f.name, e.target.checked)} />
          ) : (
            <input type={f.kind === 'text' ? 'text' : 'number'} onChange={(e) => set(f.name, e.target.value)} />
          )}
        </label>
      ))}
      <button type="submit" disabled={busy || accept === null}>{t('headless.accept')}</button>
      <button type="button" disabled={busy} onClick={() => onSend({ action: 'decline' })}>{t('headless.decline')}</button>
    </form>
  );
}

/** Cursor's question request: the options of each question (several where allowed), Send or Skip. */
function CursorQuestionForm({ title, questions, busy, onSend }: { title: string; questions: readonly CursorCardQuestion[]; busy: boolean; onSend: (response: unknown) => void }) {
  const t = useT();
  const [chosen, setChosen] = useState<Record<string, string[]>>({});
  const answer = cursorAnswer(questions, chosen);
  const toggle = (q: CursorCardQuestion, id: string, on: boolean) =>
    setChosen((c) => ({ ...c, [q.id]: q.multiple ? (on ? [...(c[q.id] ?? []), id] : (c[q.id] ?? []).filter((x) => x !== id)) : [id] }));
  return (
    <form
      aria-label={title || t('headless.questions')}
      onSubmit={(e) => {
        e.preventDefault();
        if (answer) onSend(answer);
      }}
    >
      {title && <span>{title}</span>}
      {questions.map((q) => (
        <fieldset key={q.id}>
          <legend>{q.prompt}</legend>
          {q.options.map((o) => (
            <label key={o.id}>
              <input type={q.multiple ? 'checkbox' : 'radio'} name={q.id} checked={(chosen[q.id] ?? []).includes(o.id)} onChange={(e) => toggle(q, o.id, e.target.checked)} />
              {o.label}
            </label>
          ))}
        </fieldset>
      ))}
      <button type="submit" disabled={busy || answer === null}>{t('headless.sendAnswer')}</button>
      <button type="button" disabled={busy} onClick={() => onSend({ outcome: 'skipped' })}>{t('headless.skip')}</button>
    </form>
  );
}
