import { LINE_CHARS, normalizeMessages, serializeMessages, truncateChars } from './conversation.js';
import type { MemoryMessage } from '@cccc/ipc-protocol';

// daily_flush's pure half: the signal pack (a bounded snapshot of the group's context that an
// agent passes along) and the text of the day's entry.

export const DEFAULT_SIGNAL_PACK_BUDGET = 320;

export interface SignalPack {
  schema: 'v1';
  brief: { objective: string; current_focus: string; constraints: string[]; project_brief: string };
  tasks: Record<TaskBucket, string[]>;
  agents: { id: string; focus?: string; next_action?: string; what_changed?: string; blockers?: string[]; open_loops?: string[] }[];
}

export interface SignalPackMeta {
  schema: string;
  token_budget: number;
  token_estimate: number;
  truncated: boolean;
}

const BUCKETS = ['active', 'blocked', 'waiting_user', 'done_recent', 'planned'] as const;
type TaskBucket = (typeof BUCKETS)[number];
/** Dropped first when over budget: the least urgent lists. */
const DROP_ORDER: TaskBucket[] = ['planned', 'done_recent', 'waiting_user', 'blocked', 'active'];

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown, max: number): string => (typeof v === 'string' ? truncateChars(v.trim(), max) : '');
const strs = (v: unknown, items: number, max: number): string[] =>
  (Array.isArray(v) ? v : []).map((x) => str(x, max)).filter((s) => s !== '').slice(0, items);

export function tokenEstimate(value: unknown): number {
  return Math.max(1, Math.floor([...JSON.stringify(value)].length / 4));
}

function taskLabel(item: unknown): string {
  if (typeof item === 'string') return truncateChars(item.trim(), 96);
  const o = obj(item);
  return [str(o['id'], 24), str(o['title'] ?? o['name'], 72)].filter((s) => s !== '').join(': ');
}

/** Keep the known fields, bounded; then drop the least urgent parts until the pack fits the budget. */
export function normalizeSignalPack(raw: Record<string, unknown> | undefined, budget: number): { pack?: SignalPack; meta: SignalPackMeta } {
  const empty = { meta: { schema: 'v1', token_budget: budget, token_estimate: 0, truncated: false } };
  if (!raw) return empty;
  const brief = obj(raw['coordination_brief']);
  const tasks = obj(raw['tasks']);
  const pack: SignalPack = {
    schema: 'v1',
    brief: {
      objective: str(brief['objective'], 220),
      current_focus: str(brief['current_focus'], 180),
      constraints: strs(brief['constraints'], 6, 64),
      project_brief: str(brief['project_brief'], 280),
    },
    tasks: Object.fromEntries(BUCKETS.map((b) => [b, (Array.isArray(tasks[b]) ? (tasks[b] as unknown[]) : []).map(taskLabel).filter((s) => s !== '').slice(0, 8)])) as SignalPack['tasks'],
    agents: (Array.isArray(raw['agent_states']) ? (raw['agent_states'] as unknown[]) : []).slice(0, 8).flatMap((a) => {
      const o = obj(a);
      const hot = { ...o, ...obj(o['hot']) };
      const warm = { ...o, ...obj(o['warm']) };
      const id = str(o['id'], 32);
      if (!id) return [];
      const row: SignalPack['agents'][number] = { id };
      for (const [k, v] of [['focus', str(hot['focus'], 120)], ['next_action', str(hot['next_action'], 120)], ['what_changed', str(warm['what_changed'], 140)]] as const) if (v) row[k] = v;
      const blockers = strs(hot['blockers'], 3, 80);
      const loops = strs(warm['open_loops'], 3, 100);
      if (blockers.length) row.blockers = blockers;
      if (loops.length) row.open_loops = loops;
      return Object.keys(row).length > 1 ? [row] : [];
    }),
  };
  const hasSignal = Object.values(pack.brief).some((v) => v.length > 0) || BUCKETS.some((b) => pack.tasks[b].length > 0) || pack.agents.length > 0;
  if (!hasSignal) return empty;
  let truncated = false;
  const over = () => tokenEstimate(pack) > budget;
  for (const bucket of DROP_ORDER) while (over() && pack.tasks[bucket].pop() !== undefined) truncated = true;
  while (over() && pack.agents.pop() !== undefined) truncated = true;
  while (over() && pack.brief.constraints.pop() !== undefined) truncated = true;
  for (const field of ['project_brief', 'current_focus', 'objective'] as const) {
    while (over() && pack.brief[field].length > 0) {
      pack.brief[field] = pack.brief[field].slice(0, Math.max(0, pack.brief[field].length - 32));
      truncated = true;
    }
  }
  return { pack, meta: { schema: 'v1', token_budget: budget, token_estimate: tokenEstimate(pack), truncated } };
}

export const CONVERSATION_LINES = 12;

/** The entry text: the conversation's first lines, then the snapshot sections of the pack. Empty when there is nothing to keep. */
export function summarizeDaily(messages: readonly MemoryMessage[], pack: SignalPack | undefined): string {
  const sections: string[] = [];
  const convo = serializeMessages(normalizeMessages(messages.filter((m) => m.content.trim() !== '')))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, CONVERSATION_LINES);
  if (convo.length) sections.push(['**Conversation**', ...convo.map((l) => `- ${truncateChars(l, LINE_CHARS)}`)].join('\n'));
  if (pack) {
    const b = pack.brief;
    const brief = [
      b.objective && `- Objective: ${b.objective}`,
      b.current_focus && `- Current Focus: ${b.current_focus}`,
      ...b.constraints.slice(0, 4).map((c) => `- Constraint: ${c}`),
      b.project_brief && `- Project Brief: ${b.project_brief}`,
    ].filter(Boolean);
    if (brief.length) sections.push(['**Coordination Snapshot**', ...brief].join('\n'));
    const labels: Record<TaskBucket, string> = { active: 'Active', blocked: 'Blocked', waiting_user: 'Waiting User', done_recent: 'Done Recently', planned: 'Planned' };
    const tasks = BUCKETS.flatMap((k) => pack.tasks[k].slice(0, 4).map((t) => `- ${labels[k]}: ${t}`));
    if (tasks.length) sections.push(['**Task Snapshot**', ...tasks].join('\n'));
    const agents = pack.agents.slice(0, 4).map((a) => {
      const parts = [a.id, a.focus && `focus=${a.focus}`, a.next_action && `next=${a.next_action}`, a.what_changed && `changed=${a.what_changed}`];
      if (a.blockers) parts.push(`blockers=${a.blockers.slice(0, 2).join('; ')}`);
      if (a.open_loops) parts.push(`open=${a.open_loops.slice(0, 2).join('; ')}`);
      return `- ${parts.filter(Boolean).join(' | ')}`;
    });
    if (agents.length) sections.push(['**Agent Resume Cues**', ...agents].join('\n'));
  }
  return sections.join('\n\n');
}
