import { parse, stringify } from 'yaml';
import {
  CHECKLIST_STATUSES,
  RECENT_NOTES_LIMIT,
  TASK_STATUSES,
  TASK_TYPES,
  WAITING_ON,
  emptyAgentState,
  emptyBrief,
  type AgentState,
  type Coordination,
  type ContextMeta,
  type CoordinationNote,
  type Task,
} from './model.js';

// The reference's on-disk documents <-> the in-memory model. Reads are lenient (a missing or
// foreign field gets its default, so files written by the reference load), writes are canonical.

// YAML 1.1 like the reference (PyYAML); block sequences flush with their key.
const PARSE = { version: '1.1' } as const;
const STRINGIFY = { version: '1.1', indentSeq: false, lineWidth: 0, singleQuote: true } as const;

export function parseYaml(text: string): unknown {
  return parse(text, PARSE);
}

export function toYaml(value: unknown): string {
  return stringify(value, STRINGIFY);
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : {});
const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : d);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const oneOf = <T extends string>(allowed: readonly T[], v: unknown, d: T): T => (allowed.includes(v as T) ? (v as T) : d);

export function taskFromDisk(raw: unknown, fallbackId: string): Task {
  const r = rec(raw);
  const status = oneOf(TASK_STATUSES, r['status'], 'planned');
  const task: Task = {
    id: str(r['id'], fallbackId) || fallbackId,
    title: str(r['title']),
    outcome: str(r['outcome']),
    status,
    parent_id: strOrNull(r['parent_id']),
    assignee: strOrNull(r['assignee']),
    priority: strOrNull(r['priority']),
    blocked_by: strList(r['blocked_by']),
    waiting_on: oneOf(WAITING_ON, r['waiting_on'], 'none'),
    handoff_to: strOrNull(r['handoff_to']),
    task_type: oneOf(TASK_TYPES, r['task_type'], r['parent_id'] ? 'free' : 'standard'),
    notes: str(r['notes']),
    checklist: (Array.isArray(r['checklist']) ? r['checklist'] : []).map((item, i) => {
      const c = rec(item);
      return { id: str(c['id'], `c${i + 1}`), text: str(c['text']), status: oneOf(CHECKLIST_STATUSES, c['status'], 'pending') };
    }),
    created_by: str(r['created_by']),
    created_at: str(r['created_at']),
    updated_at: str(r['updated_at'], str(r['created_at'])),
    started_at: strOrNull(r['started_at']),
    archived_from: status === 'archived' ? oneOf(TASK_STATUSES, r['archived_from'], 'planned') : null,
  };
  if (typeof r['idempotency_key'] === 'string') task.idempotency_key = r['idempotency_key'];
  return task;
}

function notesFrom(v: unknown): CoordinationNote[] {
  return (Array.isArray(v) ? v : []).slice(-RECENT_NOTES_LIMIT).map((n) => {
    const r = rec(n);
    return { at: str(r['at']), by: str(r['by']), summary: str(r['summary']), task_id: strOrNull(r['task_id']) };
  });
}

export interface ContextDoc {
  coordination: Coordination;
  meta: ContextMeta;
}

export function contextFromDisk(raw: unknown): ContextDoc {
  const r = rec(raw);
  const c = rec(r['coordination']);
  const b = rec(c['brief']);
  const base = emptyBrief();
  const meta = rec(r['meta']);
  return {
    coordination: {
      brief: {
        objective: str(b['objective']),
        current_focus: str(b['current_focus']),
        constraints: strList(b['constraints']),
        project_brief: str(b['project_brief']),
        project_brief_stale: b['project_brief_stale'] === true,
        updated_by: str(b['updated_by'], base.updated_by),
        updated_at: str(b['updated_at'], base.updated_at),
      },
      recent_decisions: notesFrom(c['recent_decisions']),
      recent_handoffs: notesFrom(c['recent_handoffs']),
    },
    meta: typeof meta['project_status'] === 'string' ? { project_status: meta['project_status'] } : {},
  };
}

export function contextToDisk(doc: ContextDoc): string {
  return toYaml({ v: 3, coordination: doc.coordination, meta: doc.meta });
}

export function agentsFromDisk(raw: unknown): AgentState[] {
  const list = rec(raw)['agents'];
  return (Array.isArray(list) ? list : []).flatMap((a) => {
    const r = rec(a);
    const id = str(r['id']);
    if (!id) return [];
    const empty = emptyAgentState(id);
    const hot = rec(r['hot']);
    const warm = rec(r['warm']);
    return [
      {
        id,
        hot: {
          active_task_id: strOrNull(hot['active_task_id']),
          focus: strOrNull(hot['focus']),
          blockers: strList(hot['blockers']),
          next_action: strOrNull(hot['next_action']),
        },
        warm: {
          what_changed: strOrNull(warm['what_changed']),
          open_loops: strList(warm['open_loops']),
          commitments: strList(warm['commitments']),
          environment_summary: strOrNull(warm['environment_summary']),
          user_model: strOrNull(warm['user_model']),
          persona_notes: strOrNull(warm['persona_notes']),
        },
        updated_at: strOrNull(r['updated_at']) ?? empty.updated_at,
      },
    ];
  });
}

export function agentsToDisk(agents: readonly AgentState[]): string {
  return toYaml({ v: 3, agents });
}

export function taskToDisk(task: Task): string {
  return toYaml(task);
}

export interface VersionState {
  version: string;
  tasks_version: string;
}

export function versionStateFromDisk(text: string | undefined): VersionState {
  if (!text) return { version: '0', tasks_version: '0' };
  const r = rec(JSON.parse(text));
  return { version: str(r['version'], '0'), tasks_version: str(r['tasks_version'], '0') };
}

export function versionStateToDisk(v: VersionState, updatedAt: string): string {
  return JSON.stringify({ schema: 1, version: v.version, tasks_version: v.tasks_version, updated_at: updatedAt }, null, 2) + '\n';
}

/** Counters as strings: a revision is opaque to clients, and only equality matters to them. */
export function bump(version: string): string {
  const n = Number.parseInt(version, 10);
  return String(Number.isFinite(n) ? n + 1 : 1);
}
