import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

async function team(): Promise<string> {
  const { group_id } = await cli.json(['group', 'create', '--title', 'ctx']);
  await cli.json(['use', group_id]);
  for (const id of ['lead', 'peer1', 'peer2']) await cli.json(['actor', 'add', id, '--runtime', 'custom', '--command', 'true']);
  return group_id;
}

describe('cccc context / task / brief / tracked-send (real daemon)', () => {
  it('brief set, task create/update/move/show/list/delete and context --detail', async () => {
    await team();
    const brief = await cli.json(['brief', 'set', '--objective', 'ship it', '--focus', 'parser', '--constraint', 'no deps', '--constraint', 'node 20', '--by', 'lead']);
    expect(brief).toMatchObject({ success: true, changes: [{ op: 'coordination.brief.update' }] });
    const denied = await cli.cccc(['brief', 'set', '--objective', 'mine', '--by', 'peer1']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/^error: permission_denied: /);

    await cli.json(['task', 'create', 'lexer', '--assignee', 'peer1', '--outcome', 'tokens']);
    await cli.json(['task', 'create', 'grammar', '--parent', 'T001']);
    await cli.json(['task', 'update', 'T002', '--notes', 'LL(1)']);
    await cli.json(['task', 'move', 'T001', 'active', '--by', 'peer1']);
    const shown = await cli.json(['task', 'show', 'T001']);
    expect(shown.task).toMatchObject({ id: 'T001', status: 'active', children: [{ id: 'T002', notes: 'LL(1)', task_type: 'free' }] });
    const list = await cli.cccc(['task', 'list', '--status', 'active']);
    expect(list.stdout).toBe('T001 [active] lexer @peer1\n1 of 1\n');
    const refused = await cli.cccc(['task', 'delete', 'T001']);
    expect(refused.stderr).toMatch(/^error: invalid_request: /);
    await cli.json(['task', 'delete', 'T002']);

    const overview = await cli.json(['context', '--detail', 'overview']);
    expect(overview.coordination.brief).toMatchObject({ objective: 'ship it', current_focus: 'parser', constraints: ['no deps', 'node 20'], updated_by: 'lead' });
    expect(overview).not.toHaveProperty('tasks_summary');
    const text = await cli.cccc(['context']);
    expect(text.stdout).toContain('objective: ship it');
    expect(text.stdout).toContain('T001 [active] lexer @peer1');
    const full = await cli.json(['context', '--detail', 'full']);
    expect(full.board.active.map((t: any) => t.id)).toEqual(['T001']);
  });

  it('tracked-send creates the task and the linked message; --key replays', async () => {
    await team();
    const sent = await cli.json(['tracked-send', 'please write the tests', '--to', 'peer2', '--title', 'tests', '--outcome', 'green', '--key', 'k1', '--by', 'lead']);
    expect(sent).toMatchObject({ task_id: 'T001', task_created: true, message_sent: true, partial_failure: false });
    expect(sent.event.data.refs).toEqual([{ kind: 'task_ref', task_id: 'T001', title: 'tests', status: 'planned' }]);
    const again = await cli.cccc(['tracked-send', 'please write the tests', '--to', 'peer2', '--title', 'tests', '--key', 'k1', '--by', 'lead']);
    expect(again.stdout).toMatch(/^T001 sent [0-9a-f]{8} \(replayed\)\n$/);
    const task = await cli.json(['task', 'show', 'T001']);
    expect(task.task).toMatchObject({ assignee: 'peer2', outcome: 'green' });
  });
});
