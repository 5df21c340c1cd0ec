import { Option, type Command } from 'commander';
import type { OpArgsInput } from '@cccc/ipc-protocol';
import { groupContext, guarded, withGroupOptions, type GroupContext, type GroupOptions } from '../context.js';
import { collect, collectList, parsePositiveInt } from '../option-parsers.js';
import { printJson, printLines } from '../output.js';

type SetExit = (code: number) => void;
type Row = Record<string, unknown>;
/** One Context v3 op as context_sync takes it: `op` plus that op's fields. */
type ContextOp = OpArgsInput<'context_sync'>['ops'][number];

interface TaskFieldOptions extends GroupOptions {
  outcome?: string;
  parent?: string;
  assignee?: string;
  priority?: string;
  notes?: string;
  type?: string;
  title?: string;
}

const taskLine = (t: Row) => `${t['id']} [${t['status']}] ${t['title']}${t['assignee'] ? ` @${t['assignee']}` : ''}`;

/** CLI flags → the task fields of task.create / task.update (only the ones given). */
function taskFields(opts: TaskFieldOptions): Row {
  const out: Row = {};
  if (opts.title !== undefined) out['title'] = opts.title;
  if (opts.outcome !== undefined) out['outcome'] = opts.outcome;
  if (opts.parent !== undefined) out['parent_id'] = opts.parent;
  if (opts.assignee !== undefined) out['assignee'] = opts.assignee === '' ? null : opts.assignee;
  if (opts.priority !== undefined) out['priority'] = opts.priority;
  if (opts.notes !== undefined) out['notes'] = opts.notes;
  if (opts.type !== undefined) out['task_type'] = opts.type;
  return out;
}

/** One context_sync batch; prints the changes (or the result as JSON). */
async function syncOps(ctx: GroupContext, ops: ContextOp[]): Promise<void> {
  const result = await ctx.client.call('context_sync', { group_id: ctx.groupId, by: ctx.by, ops });
  if (ctx.json) return printJson(result);
  printLines([...result.changes.map((c) => String(c['detail'] ?? c['op'])), `version ${result.version}`]);
}

function withTaskFields(command: Command): Command {
  return command
    .option('--outcome <text>', 'what done looks like')
    .option('--parent <task_id>', 'parent task (makes this a subtask)')
    .option('--assignee <actor_id>', 'who owns it ("" to unassign on update)')
    .option('--priority <priority>', 'task-domain priority')
    .option('--notes <text>', 'free-form notes')
    .addOption(new Option('--type <task_type>', 'task type').choices(['free', 'standard', 'optimization']));
}

/** `cccc context`, `cccc task ...`, `cccc brief set`, `cccc tracked-send` (IPC §8.8, §8.6). */
export function registerContextCommands(program: Command, setExit: SetExit): void {
  withGroupOptions(program.command('context').description('show the group context (brief, tasks, agent states)'))
    .addOption(new Option('--detail <level>', 'overview, summary or full').choices(['overview', 'summary', 'full']).default('summary'))
    .action(
      guarded(setExit, async (opts: GroupOptions & { detail: 'overview' | 'summary' | 'full' }) => {
        const ctx = groupContext(opts);
        const r = await ctx.client.call('context_get', { group_id: ctx.groupId, detail: opts.detail });
        if (ctx.json) return printJson(r);
        const b = r.coordination.brief;
        printLines([
          `version ${r.version} (tasks ${r.tasks_version})`,
          `objective: ${b.objective || '-'}`,
          `focus: ${b.current_focus || '-'}`,
          ...b.constraints.map((c) => `constraint: ${c}`),
          ...(r.coordination.tasks ?? []).map(taskLine),
          ...r.agent_states.filter((a) => a.hot.focus).map((a) => `${a.id}: ${a.hot.focus}`),
        ]);
      }),
    );

  const task = program.command('task').description('the shared task tree');
  withGroupOptions(task.command('list').description('list tasks (newest first, one page)'))
    .addOption(new Option('--status <status>', 'one column').choices(['planned', 'active', 'done', 'archived']))
    .option('--assignee <actor_id>', 'only this assignee (__unassigned__ for none)')
    .option('--query <text>', 'search id, title, outcome and notes')
    .option('--limit <n>', 'page size (1..100)', parsePositiveInt, 50)
    .option('--offset <n>', 'skip this many', (v) => Number(v))
    .action(
      guarded(setExit, async (opts: GroupOptions & { status?: 'planned'; assignee?: string; query?: string; limit: number; offset?: number }) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'task_list'> = { group_id: ctx.groupId, limit: opts.limit };
        if (opts.status) args.status = opts.status;
        if (opts.assignee) args.assignee = opts.assignee;
        if (opts.query) args.query = opts.query;
        if (opts.offset !== undefined) args.offset = opts.offset;
        const r = (await ctx.client.call('task_list', args)) as Row & { tasks: Row[]; total_count: number };
        if (ctx.json) return printJson(r);
        printLines([...r.tasks.map(taskLine), `${r.tasks.length} of ${r.total_count}`]);
      }),
    );
  withGroupOptions(task.command('show <task_id>').description('one task with its children')).action(
    guarded(setExit, async (taskId: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const r = (await ctx.client.call('task_list', { group_id: ctx.groupId, task_id: taskId })) as { task: Row & { children: Row[] } };
      if (ctx.json) return printJson(r);
      const t = r.task;
      printLines([taskLine(t), ...(t['outcome'] ? [`outcome: ${t['outcome']}`] : []), ...(t['notes'] ? [`notes: ${t['notes']}`] : []), ...t.children.map((c) => `  ${taskLine(c)}`)]);
    }),
  );
  withTaskFields(withGroupOptions(task.command('create <title>').description('create a task'))).action(
    guarded(setExit, async (title: string, opts: TaskFieldOptions) => syncOps(groupContext(opts), [{ op: 'task.create', ...taskFields(opts), title }])),
  );
  withTaskFields(withGroupOptions(task.command('update <task_id>').description('patch a task (not its status: see move)')))
    .option('--title <text>', 'new title')
    .action(guarded(setExit, async (taskId: string, opts: TaskFieldOptions) => syncOps(groupContext(opts), [{ op: 'task.update', task_id: taskId, ...taskFields(opts) }])));
  withGroupOptions(task.command('move <task_id> <status>').description('lifecycle: planned, active, done or archived')).action(
    guarded(setExit, async (taskId: string, status: string, opts: GroupOptions) => syncOps(groupContext(opts), [{ op: 'task.move', task_id: taskId, status }])),
  );
  withGroupOptions(task.command('delete <task_id>').description('delete a never-executed subtree')).action(
    guarded(setExit, async (taskId: string, opts: GroupOptions) => syncOps(groupContext(opts), [{ op: 'task.delete', task_id: taskId }])),
  );

  const brief = program.command('brief').description('the shared brief');
  withGroupOptions(brief.command('set').description('update the brief (foreman or user)'))
    .option('--objective <text>', 'the objective')
    .option('--focus <text>', 'the current focus')
    .option('--constraint <text>', 'a constraint (repeatable; replaces the list)', collect)
    .option('--project-brief <text>', 'the project brief')
    .action(
      guarded(setExit, async (opts: GroupOptions & { objective?: string; focus?: string; constraint?: string[]; projectBrief?: string }) => {
        const op: ContextOp = { op: 'coordination.brief.update' };
        if (opts.objective !== undefined) op['objective'] = opts.objective;
        if (opts.focus !== undefined) op['current_focus'] = opts.focus;
        if (opts.constraint) op['constraints'] = opts.constraint;
        if (opts.projectBrief !== undefined) op['project_brief'] = opts.projectBrief;
        await syncOps(groupContext(opts), [op]);
      }),
    );

  withGroupOptions(program.command('tracked-send <text>').description('create a task and send one linked delegation message'))
    .requiredOption('--title <text>', 'task title')
    .option('--to <recipients>', 'recipients (repeatable or comma-separated)', collectList)
    .option('--outcome <text>', 'what done looks like')
    .option('--assignee <actor_id>', 'task owner (default: the one recipient)')
    .option('--task-priority <priority>', 'task-domain priority')
    .option('--key <idempotency_key>', 'retry-safe key: the same key replays the original task and message')
    .action(
      guarded(setExit, async (text: string, opts: GroupOptions & { title: string; to?: string[]; outcome?: string; assignee?: string; taskPriority?: string; key?: string }) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'tracked_send'> = { group_id: ctx.groupId, by: ctx.by, text, title: opts.title };
        if (opts.to) args.to = opts.to;
        if (opts.outcome !== undefined) args.outcome = opts.outcome;
        if (opts.assignee !== undefined) args.assignee = opts.assignee;
        if (opts.taskPriority !== undefined) args.task_priority = opts.taskPriority;
        if (opts.key !== undefined) args.idempotency_key = opts.key;
        const r = await ctx.client.call('tracked_send', args);
        if (ctx.json) return printJson(r);
        printLines([`${r.task_id} ${r.message_sent ? `sent ${r.event_id?.slice(0, 8)}` : `NOT sent (${r.error?.code ?? 'error'})`}${r.replayed ? ' (replayed)' : ''}`]);
        if (r.partial_failure) setExit(1);
      }),
    );
}
