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

  describe('context_sync dry_run reads booleans as the reference does', () => {
    const dispatch = async (dry_run: unknown) => {
      let seen: unknown = 'not called';
      const router = new OpRouter().register('context_sync', ((args: { dry_run?: boolean }) => {
        seen = args.dry_run;
        return { success: true, dry_run: Boolean(args.dry_run), changes: [], version: '1' };
      }) as never);
      const { response } = await router.dispatch({ v: 1, op: 'context_sync', args: { group_id: 'g_1', ops: [], dry_run } });
      return { seen, response };
    };

    it.each([
      ['false', false],
      [' FALSE ', false],
      ['0', false],
      ['no', false],
      ['off', false],
      [0, false],
      [false, false],
      ['true', true],
      ['Yes', true],
      ['on', true],
      [1, true],
      [true, true],
    ])('%j is %s', async (raw, expected) => {
      const { seen, response } = await dispatch(raw);
      expect(response.ok).toBe(true);
      expect(seen).toBe(expected);
    });

    it.each(['maybe', '', 2, [], {}])('%j is refused as invalid_request naming dry_run, before the handler', async (raw) => {
      const { seen, response } = await dispatch(raw);
      expect(response.error).toMatchObject({ code: 'invalid_request', details: { field: 'dry_run' } });
      expect(response.error?.message).toContain('dry_run');
      expect(seen).toBe('not called');
    });
  });
});
