import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opCatalog } from '@cccc/ipc-protocol';
import { DaemonCallError } from '@cccc/ipc-protocol/node';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;

async function failure(p: Promise<unknown>): Promise<DaemonCallError> {
  const err = await p.then(
    () => undefined,
    (e) => e,
  );
  expect(err, 'the call should fail').toBeInstanceOf(DaemonCallError);
  return err as DaemonCallError;
}

/** Every file under the group's context/ with its bytes. */
function contextFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out[join(d, e.name)] = readFileSync(join(d, e.name), 'utf8');
    }
  };
  walk(join(fx.home, 'groups', gid, 'context'));
  return out;
}

const events = (kind: string) => fx.ledgerLines(gid).map((l) => JSON.parse(l)).filter((e) => e.kind === kind);
const sync = (by: string, ops: unknown[], extra: Record<string, unknown> = {}) => fx.client.call('context_sync', { group_id: gid, by, ops: ops as never, ...extra });

beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = (await fx.client.call('group_create', { title: 'context-test' })).group_id;
  for (const id of ['lead', 'peer1', 'peer2']) await fx.client.call('actor_add', { group_id: gid, actor_id: id, runtime: 'custom', command: ['sh'] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

describe('context_sync over the socket', () => {
  it('applies a batch, writes the reference layout and appends one context.sync event', async () => {
    const before = events('context.sync').length;
    const res = await sync('lead', [
      { op: 'coordination.brief.update', objective: 'ship the parser', constraints: ['no new deps'] },
      { op: 'task.create', title: 'lexer', assignee: 'peer1', outcome: 'tokens', notes: 'secret plan' },
      { op: 'task.create', title: 'grammar', parent_id: 'T001', handoff_to: 'peer2' },
    ]);
    opCatalog.context_sync.result.parse(res);
    expect(res).toMatchObject({ success: true, dry_run: false, changes: [{ index: 0 }, { index: 1, op: 'task.create' }, { index: 2 }] });
    const ctxDir = join(fx.home, 'groups', gid, 'context');
    expect(readdirSync(join(ctxDir, 'tasks')).sort()).toEqual(['T001.yaml', 'T002.yaml']);
    expect(existsSync(join(ctxDir, 'context.yaml')) && existsSync(join(ctxDir, 'version_state.json'))).toBe(true);
    const evs = events('context.sync');
    expect(evs.length).toBe(before + 1);
    expect(evs.at(-1)).toMatchObject({ by: 'lead', data: { version: res.version, changes: [{ index: 0, op: 'coordination.brief.update' }, { index: 1, task_id: 'T001' }, { index: 2, task_id: 'T002' }] } });
    expect(JSON.stringify(evs.at(-1))).not.toContain('secret plan');
  });

  it('permissions: a peer cannot update the brief, nor touch a task not its own; an unknown principal is refused', async () => {
    const files = contextFiles();
    const lines = fx.ledgerLines(gid).length;
    expect((await failure(sync('peer1', [{ op: 'coordination.brief.update', objective: 'mine' }]))).code).toBe('permission_denied');
    expect((await failure(sync('peer2', [{ op: 'task.move', task_id: 'T001', status: 'active' }]))).details).toMatchObject({ op_index: 0, op: 'task.move' });
    expect((await failure(sync('stranger', [{ op: 'coordination.note.add', kind: 'decision', summary: 'x' }]))).code).toBe('permission_denied');
    expect(contextFiles()).toEqual(files);
    expect(fx.ledgerLines(gid).length).toBe(lines);
    // The owners may: assignee peer1 on T001, handoff target peer2 on T002.
    await sync('peer1', [{ op: 'task.move', task_id: 'T001', status: 'active' }]);
    await sync('peer2', [{ op: 'task.update', task_id: 'T002', notes: 'on it' }, { op: 'agent_state.update', actor_id: 'peer2', focus: 'grammar' }]);
  });

  it('batch atomicity: the third op fails → nothing persists and no event is appended', async () => {
    const files = contextFiles();
    const lines = fx.ledgerLines(gid).length;
    const err = await failure(sync('user', [{ op: 'task.create', title: 'a' }, { op: 'coordination.note.add', kind: 'decision', summary: 'd' }, { op: 'task.delete', task_id: 'T001' }]));
    expect(err.code).toBe('invalid_request');
    expect(err.details).toMatchObject({ op_index: 2, op: 'task.delete', reason: 'has_execution_history' });
    expect(contextFiles()).toEqual(files);
    expect(fx.ledgerLines(gid).length).toBe(lines);
  });

  it('if_version → version_conflict; dry_run returns changes, persists nothing, appends nothing', async () => {
    const { version } = await fx.client.call('context_get', { group_id: gid, detail: 'overview' });
    const lines = fx.ledgerLines(gid).length;
    expect((await failure(sync('user', [{ op: 'task.create', title: 'x' }], { if_version: 'stale' }))).code).toBe('version_conflict');
    const dry = await sync('user', [{ op: 'task.create', title: 'x' }], { dry_run: true, if_version: version });
    expect(dry).toMatchObject({ dry_run: true, version, changes: [{ op: 'task.create' }] });
    expect(fx.ledgerLines(gid).length).toBe(lines);
    const real = await sync('user', [{ op: 'meta.merge', data: { project_status: 'green' } }], { if_version: version });
    expect(real.version).not.toBe(version);
  });
});

describe('context_get and task_list over the socket', () => {
  it('context_get: overview / summary / full (default) have the §8.8 shapes', async () => {
    const overview = await fx.client.call('context_get', { group_id: gid, detail: 'overview' });
    opCatalog.context_get.result.parse(overview);
    expect(overview).not.toHaveProperty('tasks_summary');
    expect(overview.agent_states.map((a) => a.id)).toEqual(['lead', 'peer1', 'peer2']);
    expect(overview.agent_states[2]).toMatchObject({ hot: { focus: 'grammar' } });
    const summary = await fx.client.call('context_get', { group_id: gid, detail: 'summary' });
    expect(summary.coordination.tasks![0]).toMatchObject({ id: 'T001', outcome: 'tokens', notes: 'secret plan', checklist: [], task_type: 'standard' });
    expect(summary.attention).toEqual({ blocked: 0, waiting_user: 0, pending_handoffs: 1 });
    expect(summary).not.toHaveProperty('board');
    const full = await fx.client.call('context_get', { group_id: gid });
    opCatalog.context_get.result.parse(full);
    expect(full.board?.active?.map((t) => t['id'])).toEqual(['T001']);
    expect(full.meta).toEqual({ project_status: 'green' });
  });

  it('task_list: exact, batch, paged and columns, parsed by the catalog', async () => {
    const exact = await fx.client.call('task_list', { group_id: gid, task_id: 'T001' });
    expect(exact).toMatchObject({ task: { id: 'T001', children: [{ id: 'T002', task_type: 'free' }] }, delete_info: { allowed: false, total: 2 } });
    const batch = await fx.client.call('task_list', { group_id: gid, task_ids: 'T002,T001,T404' });
    expect((batch as any).tasks.map((t: any) => t.id)).toEqual(['T002', 'T001']);
    const paged = await fx.client.call('task_list', { group_id: gid, status: 'planned', limit: 1 });
    expect(paged).toMatchObject({ count: 1, total_count: 1, has_more: false, facets: { status_counts: { planned: 1, active: 1 } } });
    const cols = await fx.client.call('task_list', { group_id: gid, statuses: 'planned,active', limit: 5, include_index: true });
    expect(Object.keys((cols as any).pages)).toEqual(['planned', 'active']);
    for (const r of [exact, batch, paged, cols]) opCatalog.task_list.result.parse(r);
    expect((await failure(fx.client.call('task_list', { group_id: gid, task_id: 'T404' }))).code).toBe('task_not_found');
    expect((await failure(fx.client.call('task_list', { group_id: gid, offset: 3 }))).details).toMatchObject({ field: 'offset' });
  });
});

describe('tracked_send', () => {
  it('creates a task (assignee from the one recipient) and one linked Send; the same key replays', async () => {
    const res = await fx.client.call('tracked_send', { group_id: gid, by: 'lead', title: 'write tests', text: 'please cover the lexer', to: ['peer1'], outcome: 'green CI', idempotency_key: 'k-1' });
    opCatalog.tracked_send.result.parse(res);
    expect(res).toMatchObject({ task_created: true, message_sent: true, partial_failure: false, message_mode: 'send', task_ref: { kind: 'task_ref', task_id: res.task_id } });
    expect(res.event?.data).toMatchObject({ message_mode: 'send', to: ['peer1'], refs: [{ kind: 'task_ref', task_id: res.task_id, title: 'write tests' }] });
    const task = await fx.client.call('task_list', { group_id: gid, task_id: res.task_id });
    expect((task as any).task).toMatchObject({ assignee: 'peer1', outcome: 'green CI', created_by: 'lead' });
    expect((task as any).task).not.toHaveProperty('idempotency_key');

    const lines = fx.ledgerLines(gid).length;
    const again = await fx.client.call('tracked_send', { group_id: gid, by: 'lead', title: 'write tests', text: 'please cover the lexer', to: ['peer1'], idempotency_key: 'k-1' });
    expect(again).toMatchObject({ replayed: true, task_id: res.task_id, event_id: res.event_id, message_sent: true });
    expect(fx.ledgerLines(gid).length).toBe(lines);
  });

  it('a bad audience or a failed task creation writes nothing at all', async () => {
    const files = contextFiles();
    const lines = fx.ledgerLines(gid).length;
    expect((await failure(fx.client.call('tracked_send', { group_id: gid, title: 't', text: 'x', to: ['nobody'] }))).code).toBe('invalid_recipient');
    expect((await failure(fx.client.call('tracked_send', { group_id: gid, title: 't', text: 'x', to: ['peer1'], assignee: 'ghost' }))).code).toBe('actor_not_found');
    expect((await failure(fx.client.call('tracked_send', { group_id: gid, by: 'peer1', title: 't', text: 'x', to: ['peer1', 'peer2'], assignee: 'peer2' }))).code).toBe('permission_denied');
    expect(contextFiles()).toEqual(files);
    expect(fx.ledgerLines(gid).length).toBe(lines);
  });

  it('a send that fails after the task exists reports partial_failure', async () => {
    const huge = { kind: 'text' as const, title: 'x'.repeat(300_000) };
    const res = await fx.client.call('tracked_send', { group_id: gid, title: 'big', text: 'see ref', to: ['peer2'], refs: [huge] });
    opCatalog.tracked_send.result.parse(res);
    expect(res).toMatchObject({ task_created: true, message_sent: false, partial_failure: true });
    expect(res.error?.code).toBeTruthy();
    expect(res).not.toHaveProperty('event');
    const task = await fx.client.call('task_list', { group_id: gid, task_id: res.task_id });
    expect((task as any).task).toMatchObject({ title: 'big', assignee: 'peer2' });
  });
});

// Last: it adds a task and an actor that the earlier cases do not expect.
describe('context_get caching', () => {
  it('context_get answers from a per-revision serialized view that follows every change', async () => {
    const first = await fx.client.call('context_get', { group_id: gid, detail: 'summary' });
    // Unchanged context: the same answer again (served from the cached text).
    expect(await fx.client.call('context_get', { group_id: gid, detail: 'summary' })).toEqual(first);
    // A context change is visible at once, at every detail level.
    await sync('user', [{ op: 'task.create', title: 'cache probe', outcome: 'seen' }]);
    const after = await fx.client.call('context_get', { group_id: gid, detail: 'summary' });
    expect(after.version).not.toBe(first.version);
    expect(after.coordination.tasks!.map((t) => t['title'])).toContain('cache probe');
    expect((await fx.client.call('context_get', { group_id: gid })).coordination.tasks!.map((t) => t['title'])).toContain('cache probe');
    // A change of the visible actors (not a context write) is visible too.
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer3', runtime: 'custom', command: ['sh'] });
    const withPeer3 = await fx.client.call('context_get', { group_id: gid, detail: 'summary' });
    expect(withPeer3.agent_states.map((a) => a.id)).toContain('peer3');
    expect(withPeer3.version).toBe(after.version);
    await fx.client.call('actor_remove', { group_id: gid, actor_id: 'peer3' });
    expect((await fx.client.call('context_get', { group_id: gid, detail: 'summary' })).agent_states.map((a) => a.id)).not.toContain('peer3');
  });
});
