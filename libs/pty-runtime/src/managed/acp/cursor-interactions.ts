import { z } from 'zod';
import { ManagedControlError } from '../runtime-adapter.js';

// Cursor's blocking ACP extension requests (§8.9: "Cursor blocking cursor/ask_question and
// cursor/create_plan requests MUST remain explicit user decisions even under tool YOLO"). They
// wait as pending interactions (kind `question` / `plan`) and are answered through
// headless_control `interaction` with the documented Cursor outcome. The wire shapes are Cursor's
// published ones; there is no Cursor CLI here, so they are tested with the scripted ACP agent.

export const CURSOR_ASK_QUESTION = 'cursor/ask_question';
export const CURSOR_CREATE_PLAN = 'cursor/create_plan';

const CursorQuestion = z.object({
  id: z.string().min(1),
  prompt: z.string(),
  options: z.array(z.object({ id: z.string().min(1), label: z.string() })).min(1),
  allowMultiple: z.boolean().optional(),
});
export const CursorAskQuestionParams = z.object({
  toolCallId: z.string().optional(),
  title: z.string().nullish(),
  questions: z.array(CursorQuestion).min(1),
});
export type CursorAskQuestionParams = z.infer<typeof CursorAskQuestionParams>;

export const CursorCreatePlanParams = z.object({
  toolCallId: z.string().optional(),
  name: z.string().nullish(),
  overview: z.string().nullish(),
  plan: z.string(),
  todos: z.array(z.object({ id: z.string().optional(), content: z.string(), status: z.string().optional() })).optional(),
});
export type CursorCreatePlanParams = z.infer<typeof CursorCreatePlanParams>;

/**
 * What headless_control shows for review: the questions and their options, nothing else.
 * `format: "cursor"` tells a client to answer with Cursor's outcome (option ids), not Codex's.
 */
export function questionSummary(p: CursorAskQuestionParams): Record<string, unknown> {
  return {
    format: 'cursor',
    ...(p.title ? { title: p.title } : {}),
    questions: p.questions.map((q) => ({ id: q.id, prompt: q.prompt, options: q.options.map((o) => ({ id: o.id, label: o.label })), allow_multiple: q.allowMultiple === true })),
  };
}

export function planSummary(p: CursorCreatePlanParams): Record<string, unknown> {
  return {
    format: 'cursor',
    ...(p.name ? { name: p.name } : {}),
    ...(p.overview ? { overview: p.overview } : {}),
    plan: p.plan,
    ...(p.todos?.length ? { todos: p.todos.map((t) => t.content) } : {}),
  };
}

/** The response every retired (cancelled, finished, disconnected) interaction gets. */
export const CANCELLED = { outcome: { outcome: 'cancelled' } } as const;

const QuestionResponse = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('answered'), answers: z.record(z.string(), z.array(z.string())) }),
  z.object({ outcome: z.literal('skipped'), reason: z.string().max(500).optional() }),
  z.object({ outcome: z.literal('cancelled') }),
]);
const PlanResponse = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('accepted') }),
  z.object({ outcome: z.literal('rejected'), reason: z.string().max(500).optional() }),
  z.object({ outcome: z.literal('cancelled') }),
]);

const invalid = (why: string) => new ManagedControlError('invalid_response', why);

/**
 * A person's answer to `cursor/ask_question` as Cursor's result. `answered` must answer every
 * pending question (and no other) with known option ids, one unless the question allows several.
 */
export function questionResult(p: CursorAskQuestionParams, response: unknown): unknown {
  const parsed = QuestionResponse.safeParse(response);
  if (!parsed.success) throw invalid('response must be { outcome: "answered", answers: { <question id>: [option id] } }, { outcome: "skipped" } or { outcome: "cancelled" }');
  const r = parsed.data;
  if (r.outcome !== 'answered') return { outcome: r };
  const given = Object.keys(r.answers);
  const unknown = given.filter((id) => !p.questions.some((q) => q.id === id));
  if (unknown.length > 0) throw invalid(`no pending question ${unknown[0]}`);
  const answers = p.questions.map((q) => {
    const chosen = r.answers[q.id];
    if (!chosen || chosen.length === 0) throw invalid(`question ${q.id} is not answered`);
    if (!q.allowMultiple && chosen.length > 1) throw invalid(`question ${q.id} takes one option`);
    if (new Set(chosen).size !== chosen.length) throw invalid(`question ${q.id} repeats an option`);
    const bad = chosen.find((id) => !q.options.some((o) => o.id === id));
    if (bad !== undefined) throw invalid(`question ${q.id} has no option ${bad}`);
    return { questionId: q.id, selectedOptionIds: chosen };
  });
  return { outcome: { outcome: 'answered', answers } };
}

/** A person's decision on `cursor/create_plan` as Cursor's result. */
export function planResult(response: unknown): unknown {
  const parsed = PlanResponse.safeParse(response);
  if (!parsed.success) throw invalid('response must be { outcome: "accepted" }, { outcome: "rejected" } or { outcome: "cancelled" }');
  return { outcome: parsed.data };
}
