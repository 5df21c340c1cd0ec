import type { HeadlessPermission } from '@cccc/ipc-protocol';

// Cursor's blocking requests on a headless ACP actor (summary `format: "cursor"`): a question
// answered with option ids (Cursor's `answered` / `skipped` outcome), a plan accepted or rejected.

export interface CursorCardQuestion {
  readonly id: string;
  readonly prompt: string;
  readonly options: ReadonlyArray<{ readonly id: string; readonly label: string }>;
  readonly multiple: boolean;
}

const isCursor = (p: Pick<HeadlessPermission, 'summary'>) => p.summary.format === 'cursor';

/** The questions of a Cursor `question` request; [] for anything else. */
export function cursorQuestions(p: Pick<HeadlessPermission, 'kind' | 'summary'>): CursorCardQuestion[] {
  if (p.kind !== 'question' || !isCursor(p) || !Array.isArray(p.summary.questions)) return [];
  return (p.summary.questions as Array<Record<string, unknown>>).flatMap((q) => {
    if (typeof q.id !== 'string' || !Array.isArray(q.options)) return [];
    const options = (q.options as Array<Record<string, unknown>>).flatMap((o) => (typeof o.id === 'string' ? [{ id: o.id, label: typeof o.label === 'string' ? o.label : o.id }] : []));
    return [{ id: q.id, prompt: typeof q.prompt === 'string' ? q.prompt : '', options, multiple: q.allow_multiple === true }];
  });
}

/** Cursor's `answered` outcome for the chosen option ids, or null while a question has none. */
export function cursorAnswer(questions: readonly CursorCardQuestion[], chosen: Readonly<Record<string, readonly string[]>>): { outcome: 'answered'; answers: Record<string, string[]> } | null {
  const answers: Record<string, string[]> = {};
  for (const q of questions) {
    const ids = (chosen[q.id] ?? []).filter((id) => q.options.some((o) => o.id === id));
    if (ids.length === 0 || (!q.multiple && ids.length > 1)) return null;
    answers[q.id] = [...ids];
  }
  return { outcome: 'answered', answers };
}

export interface CursorCardPlan {
  readonly name: string;
  readonly overview: string;
  readonly plan: string;
}

/** A Cursor `plan` request as the card shows it; null for anything else. */
export function cursorPlan(p: Pick<HeadlessPermission, 'kind' | 'summary'>): CursorCardPlan | null {
  if (p.kind !== 'plan' || !isCursor(p) || typeof p.summary.plan !== 'string') return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return { name: text(p.summary.name), overview: text(p.summary.overview), plan: p.summary.plan };
}
