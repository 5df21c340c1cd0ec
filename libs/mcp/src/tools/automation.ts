import { z } from 'zod';
import { AutomationManageAction } from '@cccc/ipc-protocol';
import { callOp, ToolFailure } from '../daemon-port.js';
import { defineTool, type ToolContext } from '../tool.js';

// §8.3 automation for agents: read the reminders you may see and manage notify rules. The
// daemon decides what is allowed (the foreman: notify rules; a peer: its own personal rule
// targeting itself), so a refusal comes back with its code.

export const automation = defineTool({
  name: 'cccc_automation',
  description:
    'Scheduled reminders of the group. action "state" lists the rules you may see with next/last fire and errors; "manage" applies actions (create_rule, update_rule, set_rule_enabled, delete_rule, replace_all_rules) all or nothing. Agents manage notify rules only; a peer only its own personal rule (scope "personal", owner_actor_id and to = itself). Pass the expected_version that "state" returned, so a concurrent change is not overwritten.',
  input: z.object({
    action: z.enum(['state', 'manage']),
    actions: z.array(AutomationManageAction).min(1).optional(),
    expected_version: z.number().int().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async ({ identity, daemon }: ToolContext, args) => {
    const group_id = identity.groupId;
    const by = identity.actorId;
    if (args.action === 'state') return callOp(daemon, 'group_automation_state', { group_id, by });
    if (!args.actions) throw new ToolFailure('invalid_request', 'actions is required for action manage', { field: 'actions' });
    return callOp(daemon, 'group_automation_manage', {
      group_id,
      by,
      actions: args.actions,
      ...(args.expected_version !== undefined ? { expected_version: args.expected_version } : {}),
    });
  },
});
