import type { MemoryMessage } from '@cccc/ipc-protocol';

// context_check and compact, pure. Tokens are estimated at 4 characters each (at least 1 per
// message), the figure the reference uses, so both daemons cut a conversation at the same place.

/** A type alias (not an interface) so it is assignable to the catalog's open records. */
export type NormalMessage = {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly name: string;
  readonly content: string;
};

export const CONTEXT_DEFAULTS = { contextWindowTokens: 128_000, reserveTokens: 36_000, keepRecentTokens: 20_000 } as const;

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

export function normalizeMessages(messages: readonly MemoryMessage[]): NormalMessage[] {
  return messages.map((m) => {
    const role = m.role.trim().toLowerCase();
    return { role: (ROLES.has(role) ? role : 'assistant') as NormalMessage['role'], name: (m.name ?? '').trim(), content: m.content };
  });
}

export function messageTokens(m: { content: string }): number {
  return Math.max(1, Math.floor([...m.content].length / 4));
}

export interface ContextCheckInput {
  readonly messages: readonly MemoryMessage[];
  readonly contextWindowTokens?: number;
  readonly reserveTokens?: number;
  readonly keepRecentTokens?: number;
}

export interface ContextCheck {
  needs_compaction: boolean;
  token_count: number;
  threshold: number;
  messages_to_summarize: NormalMessage[];
  turn_prefix_messages: NormalMessage[];
  left_messages: NormalMessage[];
  is_split_turn: boolean;
  cut_index: number;
}

/**
 * Compaction is needed once the conversation reaches window − reserve tokens. The cut keeps the
 * most recent messages worth at least keep_recent tokens; when the cut falls inside a turn (not
 * on a user message), that turn's opening messages are returned apart as the turn prefix.
 */
export function contextCheck(input: ContextCheckInput): ContextCheck {
  const messages = normalizeMessages(input.messages);
  const window = input.contextWindowTokens ?? CONTEXT_DEFAULTS.contextWindowTokens;
  const reserve = input.reserveTokens ?? CONTEXT_DEFAULTS.reserveTokens;
  const keep = input.keepRecentTokens ?? CONTEXT_DEFAULTS.keepRecentTokens;
  const token_count = messages.reduce((n, m) => n + messageTokens(m), 0);
  const threshold = Math.max(1, window - reserve);
  const answer = (needs: boolean, cut: number, turnStart = cut): ContextCheck => ({
    needs_compaction: needs,
    token_count,
    threshold,
    messages_to_summarize: messages.slice(0, turnStart),
    turn_prefix_messages: messages.slice(turnStart, cut),
    left_messages: messages.slice(cut),
    is_split_turn: turnStart < cut,
    cut_index: cut,
  });
  if (token_count < threshold) return answer(false, 0);
  let acc = 0;
  let cut = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    acc += messageTokens(messages[i]!);
    if (acc >= keep) {
      cut = i;
      break;
    }
  }
  if (cut === 0 || messages[cut]!.role === 'user') return answer(true, cut);
  let turnStart = -1;
  for (let i = cut; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      turnStart = i;
      break;
    }
  }
  return turnStart < 0 ? answer(true, cut) : answer(true, cut, turnStart);
}

export function truncateChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** `ROLE(name): content` per message, one per line. */
export function serializeMessages(messages: readonly NormalMessage[]): string {
  return messages
    .map((m) => `${m.role.toUpperCase()}${m.name ? `(${m.name})` : ''}: ${m.content}`.trim())
    .join('\n')
    .trim();
}

export interface CompactInput {
  readonly messagesToSummarize: readonly MemoryMessage[];
  readonly turnPrefixMessages?: readonly MemoryMessage[];
  readonly previousSummary?: string;
  readonly language?: string;
  readonly returnPrompt?: boolean;
}

export const HISTORY_LINES = 12;
export const PREFIX_LINES = 6;
export const LINE_CHARS = 400;

/**
 * Without a model in the daemon, a summary is extractive: the previous summary, then the first
 * 12 lines of the history and 6 of the turn prefix, 400 characters each. With return_prompt the
 * caller gets the prompt to summarize with its own model instead.
 */
export function compact(input: CompactInput): { summary: string } | { prompt: Record<string, string> } {
  const history = serializeMessages(normalizeMessages(input.messagesToSummarize));
  const prefix = serializeMessages(normalizeMessages(input.turnPrefixMessages ?? []));
  const previous = (input.previousSummary ?? '').trim();
  if (input.returnPrompt) {
    const prompt: Record<string, string> = {
      system: `Summarize high-signal durable facts only: decisions, constraints, open loops, who owns what. Drop chit-chat and repeats. Write in ${(input.language ?? '').trim() || 'en'}.`,
    };
    if (history) prompt['history_user'] = history;
    if (prefix) prompt['turn_prefix_user'] = prefix;
    if (previous) prompt['previous_summary'] = previous;
    return { prompt };
  }
  const lines: string[] = [];
  if (previous) lines.push(`Previous summary: ${previous}`);
  const section = (title: string, text: string, max: number) => {
    const body = text.split('\n').filter((l) => l.trim() !== '').slice(0, max);
    if (body.length === 0) return;
    lines.push(title, ...body.map((l) => `- ${truncateChars(l, LINE_CHARS)}`));
  };
  section('History summary:', history, HISTORY_LINES);
  section('Turn context:', prefix, PREFIX_LINES);
  return { summary: lines.join('\n').trim() };
}
