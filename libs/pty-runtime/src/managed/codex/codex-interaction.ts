import { ManagedControlError } from '../runtime-adapter.js';
import type { ToolRequestUserInputParams } from './generated/v2/ToolRequestUserInputParams.js';
import type { ToolRequestUserInputQuestion } from './generated/v2/ToolRequestUserInputQuestion.js';
import type { ToolRequestUserInputResponse } from './generated/v2/ToolRequestUserInputResponse.js';

// Codex's `item/tool/requestUserInput` (the model's request_user_input tool) as a CCCC
// interaction (spec §8.9): what a person reviews, and the one answer codex is sent back. Pure:
// the session owns the pending request and the JSON-RPC id.

/** The server request a person answers through `headless_control` action `interaction`. */
export const CODEX_USER_INPUT_METHOD = 'item/tool/requestUserInput';

/** Pending-request kind for a question (permissions are `command` / `file_change`). */
export const QUESTION_KIND = 'question';

/** The questions of a request, as codex sent them (ids, option labels) — kept to validate answers. */
export type CodexQuestions = readonly ToolRequestUserInputQuestion[];

/** The request's questions, or null when the params are not a usable request_user_input. */
export function questionsOf(params: unknown): CodexQuestions | null {
  const p = (params ?? {}) as Partial<ToolRequestUserInputParams>;
  if (!Array.isArray(p.questions) || p.questions.length === 0) return null;
  for (const q of p.questions) if (!q || typeof q.id !== 'string' || q.id === '') return null;
  return p.questions;
}

/** What `headless_control_state` shows for review: the questions and their options, nothing else. */
export function questionSummary(questions: CodexQuestions): Record<string, unknown> {
  return {
    questions: questions.map((q) => ({
      id: q.id,
      header: q.header,
      question: q.question,
      // A free-text answer is accepted besides the options.
      is_other: q.isOther,
      // The answer is a secret: clients should mask it (CCCC never records answers).
      is_secret: q.isSecret,
      options: q.options?.map((o) => ({ label: o.label, description: o.description })) ?? null,
    })),
  };
}

const invalid = (message: string) => new ManagedControlError('invalid_response', message);

/**
 * The reply codex gets for a person's `response` `{ answers: { <question id>: [answer] } }`.
 * Every pending question must be answered, and nothing else: one answer each, an option's
 * label where the question offers options (free text only where it also allows "other").
 * Throws `invalid_response` and sends nothing otherwise.
 */
export function userInputResponse(questions: CodexQuestions, response: unknown): ToolRequestUserInputResponse {
  if (typeof response !== 'object' || response === null || Array.isArray(response)) throw invalid('response must be an object { answers }');
  const answers = (response as { answers?: unknown }).answers;
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) throw invalid('response.answers must map question ids to answers');
  const given = answers as Record<string, unknown>;
  const ids = new Set(questions.map((q) => q.id));
  for (const id of Object.keys(given)) if (!ids.has(id)) throw invalid(`no pending question ${JSON.stringify(id)}`);
  const out: ToolRequestUserInputResponse = { answers: {} };
  for (const q of questions) {
    const value = given[q.id];
    if (value === undefined) throw invalid(`question ${JSON.stringify(q.id)} is not answered`);
    if (!Array.isArray(value) || value.length !== 1 || typeof value[0] !== 'string' || value[0].trim() === '') {
      throw invalid(`question ${JSON.stringify(q.id)} takes exactly one non-empty answer`);
    }
    const answer = value[0];
    if (q.options && q.options.length > 0 && !q.isOther && !q.options.some((o) => o.label === answer)) {
      throw invalid(`question ${JSON.stringify(q.id)} takes one of its options`);
    }
    out.answers[q.id] = { answers: [answer] };
  }
  return out;
}

/** The reply that releases a question nobody will answer (its turn is cancelled). */
export const NO_ANSWERS: ToolRequestUserInputResponse = { answers: {} };
