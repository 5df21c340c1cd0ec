import { describe, expect, it } from 'vitest';
import { opCatalog } from '@cccc/ipc-protocol';
import { applyOps } from './apply-ops.js';
import { emptyContext, type ContextState } from './model.js';
import { taskList } from './task-list.js';

const roles = new Map([['peer1', 'peer' as const]]);

/** 30 tasks; created one minute apart; every third assigned to peer1; T005.. moved along. */
function board(): ContextState {
  let s = emptyContext();
  for (let i = 1; i <= 30; i++) {
    const now = `2026-11-30T10:${String(i).padStart(2, '0')}:00.000000Z`;
    const out = applyOps({ state: s, ops: [{ op: 'task.create', title: `task ${i}`, assignee: i % 3 === 0 ? 'peer1' : undefined, waiting_on: i === 7 ? 'user' : undefined }], principal: { id: 'user', role: 'user' }, roles, now });
    if (!out.ok) throw new Error('seed');
    s = out.state;
  }
  const moves = [
    { op: 'task.move', task_id: 'T005', status: 'active' },
    { op: 'task.move', task_id: 'T002', status: 'active' },
    { op: 'task.move', task_id: 'T010', status: 'done' },
    { op: 'task.move', task_id: 'T011', status: 'archived' },
    { op: 'task.create', title: 'child', parent_id: 'T001' },
  ];
  const out = applyOps({ state: s, ops: moves, principal: { id: 'user', role: 'user' }, roles, now: '2026-11-30T11:00:00.000000Z' });
  if (!out.ok) throw new Error('moves');
  // Same updated_at for T002 and T005: the numeric id breaks the tie (higher first).
  return { ...out.state, tasks_version: '7' };
}

const parse = (r: unknown) => opCatalog.task_list.result.parse(r);

describe('taskList', () => {
  it('exact lookup: task with children and delete_info', () => {
    const r = taskList(board(), { task_id: 'T001' }) as any;
    parse(r);
    expect(r.task).toMatchObject({ id: 'T001', children: [{ id: 'T031', task_type: 'free' }] });
    expect(r.delete_info).toEqual({ allowed: true, total: 2, reason: '' });
    expect((taskList(board(), { task_id: 'T005' }) as any).delete_info.allowed).toBe(false);
    expect(() => taskList(board(), { task_id: 'T999' })).toThrow(expect.objectContaining({ code: 'task_not_found' }));
  });

  it('batch lookup keeps the requested order, omits missing ids, caps at 100', () => {
    const r = taskList(board(), { task_ids: 'T003, T999,T001', task_id: undefined }) as any;
    parse(r);
    expect(r.tasks.map((t: any) => t.id)).toEqual(['T003', 'T001']);
    expect(r.tasks_version).toBe('7');
    const many = Array.from({ length: 101 }, (_, i) => `T${i + 1}`).join(',');
    expect(() => taskList(board(), { task_ids: many })).toThrow(expect.objectContaining({ code: 'invalid_request', details: { field: 'task_ids' } }));
  });

  it('paged listing: filters before pagination, planned newest-created first, facets over the snapshot', () => {
    const p1 = taskList(board(), { status: 'planned', limit: 5 }) as any;
    parse(p1);
    expect(p1.tasks.map((t: any) => t.id)).toEqual(['T031', 'T030', 'T029', 'T028', 'T027']);
    expect(p1).toMatchObject({ count: 5, total_count: 27, offset: 0, limit: 5, has_more: true, tasks_version: '7' });
    expect(p1.facets).toMatchObject({ status_counts: { planned: 27, active: 2, done: 1, archived: 1 }, waiting_user: 1, assignees: ['peer1'] });
    const mine = taskList(board(), { status: 'planned', assignee: 'peer1', limit: 3, offset: 3 }) as any;
    expect(mine.tasks.map((t: any) => t.id)).toEqual(['T021', 'T018', 'T015']);
    expect(mine.total_count).toBe(10);
    const active = taskList(board(), { status: 'active', limit: 10 }) as any;
    expect(active.tasks.map((t: any) => t.id)).toEqual(['T005', 'T002']);
    expect((taskList(board(), { query: 'TASK 2', limit: 100 }) as any).total_count).toBe(11);
    expect((taskList(board(), { attention: 'waiting_user', limit: 10 }) as any).tasks.map((t: any) => t.id)).toEqual(['T007']);
    expect((taskList(board(), { assignee: '__unassigned__', status: 'done', limit: 10 }) as any).total_count).toBe(1);
    expect(() => taskList(board(), { offset: 5 })).toThrow(expect.objectContaining({ details: { field: 'offset' } }));
  });

  it('atomic multi-column listing: one snapshot, every column, optional index', () => {
    const r = taskList(board(), { statuses: 'planned,active,done', limit: 2, include_index: true }) as any;
    parse(r);
    expect(Object.keys(r.pages)).toEqual(['planned', 'active', 'done']);
    expect(r.pages.active).toMatchObject({ count: 2, total_count: 2, has_more: false });
    expect(r.pages.planned).toMatchObject({ count: 2, total_count: 27, has_more: true });
    expect(r.task_index).toHaveLength(30);
    expect(r.task_index[0]).toEqual({ id: 'T001', title: 'task 1', status: 'planned', assignee: null, parent_id: null });
    expect(() => taskList(board(), { status: 'planned', statuses: 'done' })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => taskList(board(), { statuses: 'planned,later' })).toThrow(expect.objectContaining({ details: { field: 'statuses' } }));
  });

  it('compatibility listing: every matching task, by id', () => {
    const r = taskList(board(), {}) as any;
    parse(r);
    expect(Object.keys(r)).toEqual(['tasks']);
    expect(r.tasks).toHaveLength(31);
    expect(r.tasks[0]).toMatchObject({ id: 'T001', task_type: 'standard' });
    expect((taskList(board(), { status: 'archived' }) as any).tasks.map((t: any) => t.id)).toEqual(['T011']);
  });
});
