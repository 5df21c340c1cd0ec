import { describe, expect, it } from 'vitest';
import { OpRouter } from '../router.js';
import { opCatalog } from './catalog.js';

describe('context catalog entries', () => {
  it.each(['priority', 'message_priority', 'reply_required'])('tracked_send refuses %s before the handler', async (field) => {
    let called = false;
    const router = new OpRouter().register('tracked_send', (() => {
      called = true;
      return {};
    }) as never);
    const { response } = await router.dispatch({ v: 1, op: 'tracked_send', args: { group_id: 'g_1', title: 't', text: 'x', [field]: 'high' } });
    expect(response.error).toMatchObject({ code: 'unsupported_message_fields', details: { fields: [field] } });
    expect(called).toBe(false);
  });

  it('task_list result shapes: exact, batch, columns, compatibility', () => {
    const task = { id: 'T001', title: 'a', status: 'planned', task_type: 'standard' };
    const facets = { status_counts: {}, blocked: 0, waiting_user: 0, pending_handoffs: 0, unassigned: 0, assignees: [] };
    const r = opCatalog.task_list.result;
    expect(r.safeParse({ task: { ...task, children: [] }, tasks_version: '1', delete_info: { allowed: true, total: 1, reason: '' } }).success).toBe(true);
    expect(r.safeParse({ tasks: [task], tasks_version: '1' }).success).toBe(true);
    expect(r.safeParse({ pages: { planned: { tasks: [task], count: 1, total_count: 1, offset: 0, limit: 5, has_more: false } }, tasks_version: '1', facets }).success).toBe(true);
    expect(r.safeParse({ tasks: [task] }).success).toBe(true);
    expect(r.safeParse({ tasks: [{ id: 'T1' }] }).success, 'task_type is required on every task').toBe(false);
  });
});
