import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { opCatalog } from '@cccc/ipc-protocol';
import { overviewView, contextView } from './context-view.js';
import type { ActorRoles, ContextPrincipal } from './permissions.js';
import { ContextStore } from './store.js';

const roles: ActorRoles = new Map([
  ['lead', 'foreman'],
  ['peer1', 'peer'],
]);
const USER: ContextPrincipal = { id: 'user', role: 'user' };
let dir: string;
let store: ContextStore;

/** Every file under context/ with its bytes, to prove a rejected batch changed nothing. */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (!e.name.endsWith('.lock')) out[join(d, e.name)] = readFileSync(join(d, e.name), 'utf8');
    }
  };
  walk(store.files.dir);
  return out;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cccc-context-'));
  store = new ContextStore(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ContextStore', () => {
  it('writes the reference layout and bumps version / tasks_version only on real changes', async () => {
    const a = await store.sync({ ops: [{ op: 'task.create', title: 'one' }], principal: USER, roles });
    expect(a).toMatchObject({ success: true, dry_run: false, version: '1', tasks_version: '1' });
    expect(readdirSync(store.files.dir).sort()).toEqual(['.context.lock', 'agents.yaml', 'context.yaml', 'tasks', 'version_state.json']);
    expect(readdirSync(store.files.tasksDir)).toEqual(['T001.yaml']);
    expect(readFileSync(store.files.task('T001'), 'utf8')).toMatch(/^id: T001\ntitle: one\n/);

    const brief = await store.sync({ ops: [{ op: 'coordination.brief.update', objective: 'x' }], principal: USER, roles });
    expect(brief).toMatchObject({ version: '2', tasks_version: '1' });
    const same = await store.sync({ ops: [{ op: 'meta.merge', data: { project_status: 'g' } }], principal: USER, roles });
    const again = await store.sync({ ops: [{ op: 'meta.merge', data: { project_status: 'g' } }], principal: USER, roles });
    expect(again.version).toBe(same.version);
    expect(again.persisted).toBe(false);
    expect(JSON.parse(readFileSync(store.files.versionState, 'utf8'))).toMatchObject({ schema: 1, version: '3', tasks_version: '1' });
  });

  it('batch atomicity: the third op fails → the first two did not persist, files byte-identical', async () => {
    await store.sync({ ops: [{ op: 'task.create', title: 'seed' }, { op: 'coordination.brief.update', objective: 'o' }], principal: USER, roles });
    const before = snapshot();
    const ops = [
      { op: 'task.create', title: 'new' },
      { op: 'task.update', task_id: 'T001', title: 'renamed' },
      { op: 'task.move', task_id: 'T009', status: 'done' },
    ];
    await expect(store.sync({ ops, principal: USER, roles })).rejects.toMatchObject({ code: 'task_not_found', details: { op_index: 2, op: 'task.move' } });
    // An unauthorized third op behaves the same.
    const peer: ContextPrincipal = { id: 'peer1', role: 'peer' };
    await expect(
      store.sync({ ops: [{ op: 'coordination.note.add', kind: 'decision', summary: 's' }, { op: 'task.create', title: 'x' }, { op: 'meta.merge', data: { project_status: 'r' } }], principal: peer, roles }),
    ).rejects.toMatchObject({ code: 'permission_denied', details: { op_index: 2 } });
    expect(snapshot()).toEqual(before);
    expect(new ContextStore(dir).read().tasks.get('T001')?.title).toBe('seed');
  });

  it('if_version mismatch → version_conflict (nothing written); dry_run returns changes and persists nothing', async () => {
    await store.sync({ ops: [{ op: 'task.create', title: 'seed' }], principal: USER, roles });
    const before = snapshot();
    await expect(store.sync({ ops: [{ op: 'task.create', title: 'x' }], principal: USER, roles, if_version: '0' })).rejects.toMatchObject({
      code: 'version_conflict',
      details: { expected: '0', current: '1' },
    });
    const dry = await store.sync({ ops: [{ op: 'task.create', title: 'x' }], principal: USER, roles, dry_run: true, if_version: '1' });
    expect(dry).toMatchObject({ dry_run: true, version: '1', changes: [{ index: 0, op: 'task.create', task_id: 'T002' }] });
    expect(snapshot()).toEqual(before);
    const ok = await store.sync({ ops: [{ op: 'task.create', title: 'x' }], principal: USER, roles, if_version: '1' });
    expect(ok.version).toBe('2');
  });

  it('overview reads no task file; summary keeps every editor field; full adds board and notes', async () => {
    await store.sync({
      ops: [
        { op: 'task.create', title: 'a', outcome: 'out', notes: 'n', checklist: [{ text: 'c' }], assignee: 'peer1', waiting_on: 'user' },
        { op: 'task.create', title: 'b', blocked_by: ['T001'] },
        { op: 'coordination.note.add', kind: 'decision', summary: 'use zod' },
      ],
      principal: USER,
      roles,
    });
    writeFileSync(store.files.task('T002'), ': not yaml : [');
    const fresh = new ContextStore(dir);
    const overview = overviewView(fresh.readHead(), ['lead', 'peer1']);
    opCatalog.context_get.result.parse(overview);
    expect(overview).not.toHaveProperty('tasks_summary');
    expect(overview.coordination.recent_decisions[0]).toMatchObject({ summary: 'use zod' });
    expect(overview.agent_states.map((a) => a.id)).toEqual(['lead', 'peer1']);
    expect(() => fresh.read()).toThrow(expect.objectContaining({ code: 'io_error' }));

    rmSync(store.files.task('T002'));
    await store.sync({ ops: [{ op: 'task.create', title: 'b', blocked_by: ['T001'] }], principal: USER, roles });
    const state = new ContextStore(dir).read();
    const summary = contextView(state, 'summary');
    opCatalog.context_get.result.parse(summary);
    expect(summary).not.toHaveProperty('board');
    expect(summary.coordination).not.toHaveProperty('recent_decisions');
    expect(summary.coordination.tasks[0]).toMatchObject({ outcome: 'out', notes: 'n', checklist: [{ text: 'c' }], task_type: 'standard' });
    expect(summary.attention).toEqual({ blocked: 1, waiting_user: 1, pending_handoffs: 0 });
    const full = contextView(state, 'full') as any;
    opCatalog.context_get.result.parse(full);
    expect(full.board.planned.map((t: any) => t.id)).toEqual(['T003', 'T001']);
    expect(full.attention.blocked).toMatchObject([{ id: 'T003' }]);
    expect(full.coordination.recent_decisions).toHaveLength(1);
  });
});
