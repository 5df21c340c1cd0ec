import { ContextErrorCodes, type ContextErrorCode, type OpRejection } from './errors.js';
import {
  RECENT_NOTES_LIMIT,
  emptyAgentState,
  type AgentState,
  type ChecklistItem,
  type ContextState,
  type Task,
} from './model.js';
import { OP_NAMES, isOpName, opSchemas, withLegacyAliases, type ParsedOp } from './op-schemas.js';
import { authorizeOp, type ActorRoles, type ContextPrincipal } from './permissions.js';
import { nextTaskId } from './task-ids.js';
import { deleteInfo, subtreeOf, wouldCycle } from './task-tree.js';

/** One entry of `context_sync.changes` (`detail` is for display, not a contract). */
export type ContextChange = {
  index: number;
  op: string;
  detail: string;
  task_id?: string;
  actor_id?: string;
};

export interface ApplyInput {
  readonly state: ContextState;
  readonly ops: readonly unknown[];
  readonly principal: ContextPrincipal;
  readonly roles: ActorRoles;
  /** Daemon time for every stamp of the batch. */
  readonly now: string;
  /** Set only by tracked_send on the task its single task.create makes. */
  readonly idempotencyKey?: string;
}

export type ApplyOutcome =
  | { readonly ok: true; readonly state: ContextState; readonly changes: ContextChange[] }
  | { readonly ok: false; readonly rejection: OpRejection };

class Rejected extends Error {
  constructor(
    readonly code: ContextErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const invalid = (message: string, details: Record<string, unknown>) => new Rejected(ContextErrorCodes.invalidRequest, message, details);

/**
 * The pure core of `context_sync`: apply the ops in order to a copy of `state`. The first op
 * that is malformed, unknown, unauthorized or breaks a tree rule rejects the whole batch, so
 * the caller persists either every change or none.
 */
export function applyOps(input: ApplyInput): ApplyOutcome {
  const draft = new Draft(input);
  for (let index = 0; index < input.ops.length; index++) {
    const raw = input.ops[index];
    const opName = typeof (raw as { op?: unknown } | null)?.op === 'string' ? String((raw as { op: string }).op) : '';
    try {
      draft.apply(index, parseOp(raw));
    } catch (error) {
      if (!(error instanceof Rejected)) throw error;
      return {
        ok: false,
        rejection: { code: error.code, message: `ops[${index}] (${opName || '?'}): ${error.message}`, details: { op_index: index, op: opName, ...error.details } },
      };
    }
  }
  return { ok: true, state: draft.state, changes: draft.changes };
}

function parseOp(raw: unknown): ParsedOp {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('an op must be an object', { field: 'op' });
  const rec = withLegacyAliases(raw as Record<string, unknown>);
  if (!isOpName(rec['op'])) {
    throw invalid(`unknown op ${JSON.stringify(rec['op'])}`, { field: 'op', reason: 'unknown_op', known_ops: OP_NAMES });
  }
  if (rec['op'] === 'task.update' && 'status' in rec) {
    throw invalid('task.update does not change the lifecycle; use task.move', { field: 'status', reason: 'use_task_move' });
  }
  const parsed = opSchemas[rec['op']].safeParse(rec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`${issue.path.join('.') || 'op'}: ${issue.message}`, { field: issue.path.join('.') });
  }
  return { op: rec['op'], ...parsed.data } as ParsedOp;
}

function checklistOf(items: ReadonlyArray<{ id?: string | undefined; text: string; status?: ChecklistItem['status'] | undefined }>): ChecklistItem[] {
  const used = new Set(items.map((i) => i.id).filter(Boolean));
  let n = 0;
  const fresh = () => {
    do n++;
    while (used.has(`c${n}`));
    return `c${n}`;
  };
  return items.map((i) => ({ id: i.id ?? fresh(), text: i.text.trim(), status: i.status ?? 'pending' }));
}

/** A copy-on-write working state: inputs are never mutated, so a rejected batch leaves no trace. */
class Draft {
  readonly state: ContextState;
  readonly changes: ContextChange[] = [];

  constructor(private readonly input: ApplyInput) {
    const s = input.state;
    this.state = {
      ...s,
      coordination: { ...s.coordination, brief: { ...s.coordination.brief } },
      agents: [...s.agents],
      meta: { ...s.meta },
      tasks: new Map(s.tasks),
    };
  }

  private task(id: string, field = 'task_id'): Task {
    const t = this.state.tasks.get(id);
    if (!t) throw new Rejected(ContextErrorCodes.taskNotFound, `no task ${id}`, { field, task_id: id });
    return t;
  }

  private knownActor(id: string | null | undefined, field: string): void {
    if (!id || id === 'user' || this.input.roles.has(id)) return;
    throw new Rejected(ContextErrorCodes.actorNotFound, `${field}: no actor ${id} in this group`, { field, actor_id: id });
  }

  private checkTaskFields(op: Extract<ParsedOp, { op: 'task.create' | 'task.update' }>, selfId: string | undefined): void {
    this.knownActor(op.assignee, 'assignee');
    this.knownActor(op.handoff_to, 'handoff_to');
    if (op.parent_id) {
      this.task(op.parent_id, 'parent_id');
      if (selfId && wouldCycle(this.state.tasks, selfId, op.parent_id)) {
        throw invalid(`parent ${op.parent_id} would make ${selfId} its own ancestor`, { field: 'parent_id', reason: 'cycle' });
      }
    }
    for (const b of op.blocked_by ?? []) {
      if (b === selfId) throw invalid('a task cannot block itself', { field: 'blocked_by', reason: 'self_block' });
      this.task(b, 'blocked_by');
    }
  }

  private record(index: number, op: string, detail: string, ids: { task_id?: string; actor_id?: string } = {}): void {
    this.changes.push({ index, op, detail, ...ids });
  }

  apply(index: number, op: ParsedOp): void {
    const target = 'task_id' in op && op.op.startsWith('task.') ? this.task(op.task_id as string) : undefined;
    const auth = authorizeOp(this.input.principal, op, target, this.input.roles);
    if (!auth.allowed) throw new Rejected(ContextErrorCodes.permissionDenied, auth.reason, { by: this.input.principal.id, reason: auth.reason });
    const { now } = this.input;
    const s = this.state;
    switch (op.op) {
      case 'coordination.brief.update': {
        const { op: _op, ...patch } = op;
        const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
        s.coordination.brief = { ...s.coordination.brief, ...defined, updated_by: this.input.principal.id, updated_at: now };
        return this.record(index, op.op, `brief: ${Object.keys(defined).join(', ') || 'touched'}`);
      }
      case 'coordination.note.add': {
        if (op.task_id) this.task(op.task_id);
        const key = op.kind === 'decision' ? 'recent_decisions' : 'recent_handoffs';
        const note = { at: now, by: this.input.principal.id, summary: op.summary, task_id: op.task_id ?? null };
        s.coordination = { ...s.coordination, [key]: [...s.coordination[key], note].slice(-RECENT_NOTES_LIMIT) };
        return this.record(index, op.op, `${op.kind}: ${op.summary.slice(0, 80)}`, op.task_id ? { task_id: op.task_id } : {});
      }
      case 'task.create': {
        this.checkTaskFields(op, undefined);
        const id = nextTaskId(s.tasks.keys());
        const status = op.status ?? 'planned';
        const task: Task = {
          id,
          title: op.title,
          outcome: op.outcome ?? '',
          status,
          parent_id: op.parent_id ?? null,
          assignee: op.assignee ?? null,
          priority: op.priority ?? null,
          blocked_by: op.blocked_by ?? [],
          waiting_on: op.waiting_on ?? 'none',
          handoff_to: op.handoff_to ?? null,
          // A root is a deliverable; a subtask is a free-form step unless the caller says otherwise.
          task_type: op.task_type ?? (op.parent_id ? 'free' : 'standard'),
          notes: op.notes ?? '',
          checklist: checklistOf(op.checklist ?? []),
          created_by: this.input.principal.id,
          created_at: now,
          updated_at: now,
          started_at: status === 'planned' ? null : now,
          archived_from: null,
          ...(this.input.idempotencyKey ? { idempotency_key: this.input.idempotencyKey } : {}),
        };
        s.tasks.set(id, task);
        return this.record(index, op.op, `created ${id} "${task.title}"`, { task_id: id });
      }
      case 'task.update': {
        const old = target!;
        this.checkTaskFields(op, old.id);
        const { op: _op, task_id: _id, checklist, ...fields } = op;
        const patch: Partial<Task> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
        if (checklist) patch.checklist = checklistOf(checklist);
        s.tasks.set(old.id, { ...old, ...patch, updated_at: now });
        return this.record(index, op.op, `updated ${old.id}: ${Object.keys(patch).join(', ') || 'nothing'}`, { task_id: old.id });
      }
      case 'task.move': {
        const old = target!;
        const next: Task = { ...old, status: op.status, updated_at: now };
        if (op.status === 'archived') next.archived_from = old.status === 'archived' ? old.archived_from : old.status;
        else next.archived_from = null;
        if ((op.status === 'active' || op.status === 'done') && !old.started_at) next.started_at = now;
        s.tasks.set(old.id, next);
        return this.record(index, op.op, `${old.id}: ${old.status} → ${op.status}`, { task_id: old.id });
      }
      case 'task.restore': {
        const old = target!;
        if (old.status !== 'archived') throw invalid(`${old.id} is ${old.status}, not archived`, { field: 'task_id', reason: 'not_archived' });
        const status = old.archived_from ?? 'planned';
        s.tasks.set(old.id, { ...old, status, archived_from: null, updated_at: now });
        return this.record(index, op.op, `${old.id}: archived → ${status}`, { task_id: old.id });
      }
      case 'task.delete': {
        const info = deleteInfo(s.tasks, target!.id);
        if (!info.allowed) throw invalid(info.reason, { field: 'task_id', reason: 'has_execution_history', task_id: target!.id });
        const removed = subtreeOf(s.tasks, target!.id).map((t) => t.id);
        for (const id of removed) s.tasks.delete(id);
        return this.record(index, op.op, `deleted ${removed.join(', ')}`, { task_id: target!.id });
      }
      case 'agent_state.update': {
        this.knownActor(op.actor_id, 'actor_id');
        const old = s.agents.find((a) => a.id === op.actor_id) ?? emptyAgentState(op.actor_id);
        const pick = <T extends object>(base: T, ...sources: Array<Record<string, unknown> | undefined>): T => {
          const out = { ...base } as Record<string, unknown>;
          for (const src of sources) for (const key of Object.keys(base)) if (src && src[key] !== undefined) out[key] = src[key];
          return out as T;
        };
        const next: AgentState = {
          id: op.actor_id,
          hot: pick(old.hot, op as Record<string, unknown>, op.hot),
          warm: pick(old.warm, op as Record<string, unknown>, op.warm),
          updated_at: now,
        };
        this.putAgent(next);
        return this.record(index, op.op, `agent_state ${op.actor_id} updated`, { actor_id: op.actor_id });
      }
      case 'agent_state.clear': {
        this.knownActor(op.actor_id, 'actor_id');
        this.putAgent({ ...emptyAgentState(op.actor_id), updated_at: now });
        return this.record(index, op.op, `agent_state ${op.actor_id} cleared`, { actor_id: op.actor_id });
      }
      case 'meta.merge': {
        s.meta = { ...s.meta, ...op.data };
        return this.record(index, op.op, `meta: ${Object.keys(op.data).join(', ')}`);
      }
    }
  }

  private putAgent(next: AgentState): void {
    const i = this.state.agents.findIndex((a) => a.id === next.id);
    if (i >= 0) this.state.agents[i] = next;
    else this.state.agents.push(next);
  }
}
