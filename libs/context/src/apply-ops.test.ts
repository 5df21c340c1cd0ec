import { describe, expect, it } from 'vitest';
import { applyOps, type ApplyInput } from './apply-ops.js';
import { emptyContext, type ContextState } from './model.js';
import type { ActorRoles, ContextPrincipal } from './permissions.js';

const roles: ActorRoles = new Map([
  ['lead', 'foreman'],
  ['peer1', 'peer'],
  ['peer2', 'peer'],
]);
const USER: ContextPrincipal = { id: 'user', role: 'user' };
const LEAD: ContextPrincipal = { id: 'lead', role: 'foreman' };
const P1: ContextPrincipal = { id: 'peer1', role: 'peer' };
const P2: ContextPrincipal = { id: 'peer2', role: 'peer' };
const now = '2026-11-30T10:00:00.000000Z';

function run(state: ContextState, principal: ContextPrincipal, ops: unknown[], extra: Partial<ApplyInput> = {}) {
  return applyOps({ state, ops, principal, roles, now, ...extra });
}
function ok(state: ContextState, principal: ContextPrincipal, ops: unknown[]): ContextState {
  const out = run(state, principal, ops);
  if (!out.ok) throw new Error(JSON.stringify(out.rejection));
  return out.state;
}
function rejected(state: ContextState, principal: ContextPrincipal, ops: unknown[]) {
  const out = run(state, principal, ops);
  if (out.ok) throw new Error('expected a rejection');
  return out.rejection;
}

/** T001 (root, assigned peer1), T002 (child of T001, handed off to peer2), T003 (unassigned). */
function seeded(): ContextState {
  return ok(emptyContext(), USER, [
    { op: 'task.create', title: 'root', assignee: 'peer1' },
    { op: 'task.create', title: 'child', parent_id: 'T001', handoff_to: 'peer2' },
    { op: 'task.create', title: 'loose' },
  ]);
}

describe('applyOps: the v3 ops', () => {
  it('task.create numbers ids, defaults task_type by depth, fills checklist ids', () => {
    const s = ok(seeded(), USER, [{ op: 'task.create', title: ' sub ', parent_id: 'T002', checklist: [{ text: 'a' }, { id: 'x', text: 'b', status: 'done' }] }]);
    expect(s.tasks.get('T001')).toMatchObject({ task_type: 'standard', status: 'planned', assignee: 'peer1', created_by: 'user' });
    expect(s.tasks.get('T002')?.task_type).toBe('free');
    expect(s.tasks.get('T004')).toMatchObject({ title: 'sub', task_type: 'free', checklist: [{ id: 'c1', text: 'a', status: 'pending' }, { id: 'x', text: 'b', status: 'done' }] });
  });

  it('task.create rejects a missing parent, an unknown blocker and an unknown assignee', () => {
    expect(rejected(seeded(), USER, [{ op: 'task.create', title: 'x', parent_id: 'T099' }])).toMatchObject({ code: 'task_not_found', details: { op_index: 0, field: 'parent_id' } });
    expect(rejected(seeded(), USER, [{ op: 'task.create', title: 'x', blocked_by: ['T099'] }]).code).toBe('task_not_found');
    expect(rejected(seeded(), USER, [{ op: 'task.create', title: 'x', assignee: 'ghost' }]).code).toBe('actor_not_found');
    expect(rejected(seeded(), USER, [{ op: 'task.create' }])).toMatchObject({ code: 'invalid_request', details: { field: 'title' } });
  });

  it('task.update patches fields, refuses a lifecycle change and a parent cycle', () => {
    const s = ok(seeded(), USER, [{ op: 'task.update', task_id: 'T001', outcome: 'done right', notes: 'n', assignee: null }]);
    expect(s.tasks.get('T001')).toMatchObject({ outcome: 'done right', notes: 'n', assignee: null, title: 'root' });
    expect(rejected(seeded(), USER, [{ op: 'task.update', task_id: 'T001', status: 'done' }])).toMatchObject({ code: 'invalid_request', details: { field: 'status' } });
    expect(rejected(seeded(), USER, [{ op: 'task.update', task_id: 'T001', parent_id: 'T002' }])).toMatchObject({ code: 'invalid_request', details: { reason: 'cycle' } });
    expect(rejected(seeded(), USER, [{ op: 'task.update', task_id: 'T042', title: 'x' }]).code).toBe('task_not_found');
  });

  it('task.move records archived_from; task.restore returns there and needs an archived task', () => {
    let s = ok(seeded(), USER, [{ op: 'task.move', task_id: 'T001', status: 'active' }, { op: 'task.move', task_id: 'T001', status: 'archived' }]);
    expect(s.tasks.get('T001')).toMatchObject({ status: 'archived', archived_from: 'active', started_at: now });
    s = ok(s, USER, [{ op: 'task.restore', task_id: 'T001' }]);
    expect(s.tasks.get('T001')).toMatchObject({ status: 'active', archived_from: null });
    expect(rejected(s, USER, [{ op: 'task.restore', task_id: 'T001' }])).toMatchObject({ code: 'invalid_request', details: { reason: 'not_archived' } });
    expect(rejected(s, USER, [{ op: 'task.move', task_id: 'T001', status: 'started' }]).code).toBe('invalid_request');
  });

  it('task.delete removes a never-executed subtree, and refuses one with execution history', () => {
    const s = ok(seeded(), USER, [{ op: 'task.delete', task_id: 'T001' }]);
    expect([...s.tasks.keys()]).toEqual(['T003']);
    const archivedFromPlanned = ok(seeded(), USER, [{ op: 'task.move', task_id: 'T003', status: 'archived' }, { op: 'task.delete', task_id: 'T003' }]);
    expect(archivedFromPlanned.tasks.has('T003')).toBe(false);
    const ran = ok(seeded(), USER, [{ op: 'task.move', task_id: 'T002', status: 'active' }, { op: 'task.move', task_id: 'T002', status: 'planned' }]);
    expect(rejected(ran, USER, [{ op: 'task.delete', task_id: 'T001' }])).toMatchObject({ code: 'invalid_request', details: { reason: 'has_execution_history' } });
  });

  it('coordination ops: brief update stamps updated_by/at; notes are bounded to the newest', () => {
    let s = ok(emptyContext(), LEAD, [{ op: 'coordination.brief.update', objective: 'ship v1', constraints: ['no deps'] }]);
    expect(s.coordination.brief).toMatchObject({ objective: 'ship v1', constraints: ['no deps'], updated_by: 'lead', updated_at: now, current_focus: '' });
    const notes = Array.from({ length: 60 }, (_, i) => ({ op: 'coordination.note.add', kind: 'decision', summary: `d${i}` }));
    s = ok(s, P1, notes);
    expect(s.coordination.recent_decisions).toHaveLength(50);
    expect(s.coordination.recent_decisions.at(-1)).toMatchObject({ summary: 'd59', by: 'peer1', task_id: null });
    expect(rejected(s, P1, [{ op: 'coordination.note.add', kind: 'gossip', summary: 'x' }]).code).toBe('invalid_request');
  });

  it('agent_state.update merges hot/warm (nested, flat and legacy aliases); clear empties it', () => {
    let s = ok(emptyContext(), P1, [
      { op: 'agent_state.update', actor_id: 'peer1', hot: { focus: 'parser' }, blockers: ['ci red'] },
      { op: 'agent_state.update', agent_id: 'peer1', environment: 'node 20', notes: 'terse' },
    ]);
    expect(s.agents[0]).toMatchObject({ id: 'peer1', hot: { focus: 'parser', blockers: ['ci red'] }, warm: { environment_summary: 'node 20', persona_notes: 'terse' }, updated_at: now });
    s = ok(s, USER, [{ op: 'agent_state.clear', actor_id: 'peer1' }]);
    expect(s.agents[0]).toMatchObject({ hot: { focus: null, blockers: [] }, warm: { environment_summary: null } });
  });

  it('meta.merge accepts project_status only', () => {
    expect(ok(emptyContext(), LEAD, [{ op: 'meta.merge', data: { project_status: 'green' } }]).meta).toEqual({ project_status: 'green' });
    expect(rejected(emptyContext(), LEAD, [{ op: 'meta.merge', data: { other: 1 } }]).code).toBe('invalid_request');
  });

  it('unknown op names reject the batch; the input state is never mutated', () => {
    const s = seeded();
    const before = JSON.stringify([...s.tasks.values()]);
    const r = rejected(s, USER, [{ op: 'task.update', task_id: 'T001', title: 'renamed' }, { op: 'task.create', title: 'x' }, { op: 'task.explode' }]);
    expect(r).toMatchObject({ code: 'invalid_request', details: { op_index: 2, op: 'task.explode', reason: 'unknown_op' } });
    expect(JSON.stringify([...s.tasks.values()])).toBe(before);
  });
});

describe('applyOps: permissions (user / foreman / peer)', () => {
  const cases: Array<[string, ContextPrincipal, unknown, boolean]> = [
    ['brief by user', USER, { op: 'coordination.brief.update', objective: 'x' }, true],
    ['brief by foreman', LEAD, { op: 'coordination.brief.update', objective: 'x' }, true],
    ['brief by peer', P1, { op: 'coordination.brief.update', objective: 'x' }, false],
    ['meta by foreman', LEAD, { op: 'meta.merge', data: { project_status: 'ok' } }, true],
    ['meta by peer', P1, { op: 'meta.merge', data: { project_status: 'ok' } }, false],
    ['note by peer', P2, { op: 'coordination.note.add', kind: 'handoff', summary: 'x' }, true],
    ['create by peer, unassigned', P1, { op: 'task.create', title: 'x' }, true],
    ['create by peer, for itself', P1, { op: 'task.create', title: 'x', assignee: 'peer1' }, true],
    ['create by peer, for the foreman', P1, { op: 'task.create', title: 'x', assignee: 'lead' }, true],
    ['create by peer, for another peer', P1, { op: 'task.create', title: 'x', assignee: 'peer2' }, false],
    ['create by foreman, for a peer', LEAD, { op: 'task.create', title: 'x', assignee: 'peer2' }, true],
    ['update own task (assignee)', P1, { op: 'task.update', task_id: 'T001', notes: 'n' }, true],
    ['update handed-off task', P2, { op: 'task.update', task_id: 'T002', notes: 'n' }, true],
    ['update someone else’s task', P2, { op: 'task.update', task_id: 'T001', notes: 'n' }, false],
    ['peer reassigns own task to another peer', P1, { op: 'task.update', task_id: 'T001', assignee: 'peer2' }, false],
    ['move own task', P1, { op: 'task.move', task_id: 'T001', status: 'active' }, true],
    ['move unassigned task as peer', P1, { op: 'task.move', task_id: 'T003', status: 'active' }, false],
    ['move any task as foreman', LEAD, { op: 'task.move', task_id: 'T003', status: 'active' }, true],
    ['delete own task as peer', P2, { op: 'task.delete', task_id: 'T002' }, true],
    ['delete other task as peer', P2, { op: 'task.delete', task_id: 'T003' }, false],
    ['own agent_state', P1, { op: 'agent_state.update', actor_id: 'peer1', focus: 'x' }, true],
    ['another agent_state as peer', P1, { op: 'agent_state.update', actor_id: 'peer2', focus: 'x' }, false],
    ['another agent_state as foreman', LEAD, { op: 'agent_state.clear', actor_id: 'peer2' }, false],
    ['own agent_state as foreman', LEAD, { op: 'agent_state.clear', actor_id: 'lead' }, true],
    ['any agent_state as user', USER, { op: 'agent_state.clear', actor_id: 'peer2' }, true],
  ];
  it.each(cases)('%s', (_name, principal, op, allowed) => {
    const out = run(seeded(), principal, [op]);
    if (allowed) expect(out.ok, JSON.stringify(out)).toBe(true);
    else expect(out).toMatchObject({ ok: false, rejection: { code: 'permission_denied', details: { op_index: 0 } } });
  });
});
