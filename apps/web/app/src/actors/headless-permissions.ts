import type { HeadlessPermission } from '@cccc/ipc-protocol';
import { english, type Translate } from '../i18n/plain';

/**
 * One pending request as the card shows it: what it asks to do, for a person to approve or deny,
 * in the page's language (the command, paths and the agent's reason stay as the agent wrote them).
 */
export function permissionLine(p: Pick<HeadlessPermission, 'kind' | 'summary'>, t: Translate = english): string {
  const command = typeof p.summary.command === 'string' ? p.summary.command : undefined;
  const reason = typeof p.summary.reason === 'string' ? p.summary.reason : undefined;
  const what =
    p.kind === 'command' ? (command ? t('perm.run', { command }) : t('perm.runCommand')) : p.kind === 'file_change' ? t('perm.changeFiles') : p.kind === 'permissions' ? accessLine(p.summary, t) : p.kind;
  return reason ? t('perm.withReason', { what, reason }) : what;
}

/** One question of a pending `question` request, as the card asks it. */
export interface CardQuestion {
  readonly id: string;
  readonly text: string;
  readonly options: readonly string[];
  /** A free-text answer is allowed besides the options. */
  readonly other: boolean;
  /** Mask what the person types. */
  readonly secret: boolean;
}

/** The questions of a `question` request (kind `question`, answered with action `interaction`); [] for anything else. */
export function cardQuestions(p: Pick<HeadlessPermission, 'kind' | 'summary'>): CardQuestion[] {
  // Cursor's questions are answered with option ids (headless-cursor.ts), not these answers.
  if (p.kind !== 'question' || p.summary.format === 'cursor' || !Array.isArray(p.summary.questions)) return [];
  return (p.summary.questions as Array<Record<string, unknown>>).flatMap((q) => {
    if (typeof q.id !== 'string') return [];
    const options = Array.isArray(q.options) ? (q.options as Array<{ label?: unknown }>).flatMap((o) => (typeof o.label === 'string' ? [o.label] : [])) : [];
    const text = [q.header, q.question].filter((s) => typeof s === 'string' && s !== '').join(': ');
    return [{ id: q.id, text, options, other: q.is_other === true || options.length === 0, secret: q.is_secret === true }];
  });
}

/** The `interaction` response for the person's answers (one per question), or null while one is missing. */
export function interactionResponse(questions: readonly CardQuestion[], answers: Readonly<Record<string, string>>): { answers: Record<string, string[]> } | null {
  const out: Record<string, string[]> = {};
  for (const q of questions) {
    const a = answers[q.id]?.trim();
    if (!a) return null;
    out[q.id] = [a];
  }
  return { answers: out };
}

/** A `permissions` request (more sandbox for this turn): the access it asks for. */
function accessLine(summary: Readonly<Record<string, unknown>>, t: Translate): string {
  const parts: string[] = [];
  const network = summary.network as { enabled?: unknown } | undefined;
  if (network?.enabled === true) parts.push(t('perm.network'));
  const fs = summary.file_system as { read?: unknown; write?: unknown } | undefined;
  const paths = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  if (paths(fs?.read).length > 0) parts.push(t('perm.read', { paths: paths(fs?.read).join(', ') }));
  if (paths(fs?.write).length > 0) parts.push(t('perm.write', { paths: paths(fs?.write).join(', ') }));
  return parts.length > 0 ? t('perm.allow', { parts: parts.join(t('perm.separator')) }) : t('perm.allowMore');
}
