import { z } from 'zod';
import type { ActorListEntry } from '@cccc/ipc-protocol';
import { callOp } from '../daemon-port.js';
import { defineTool } from '../tool.js';

const PREVIEW_LIMIT = 20;

/** Role is the daemon's answer (first enabled actor = foreman); absence from the group is a peer. */
export function roleOf(actors: readonly ActorListEntry[], actorId: string): 'foreman' | 'peer' {
  return actors.find((a) => a.id === actorId)?.role ?? 'peer';
}

/** The facts an actor needs when its session starts; reads only (Mail is previewed, not consumed). */
export const bootstrap = defineTool({
  name: 'cccc_bootstrap',
  description: 'Who you are, your group and team, a preview of unread Mail (not consumed) and the context overview.',
  input: z.object({}),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async ({ identity, daemon }) => {
    const group_id = identity.groupId;
    const me = identity.actorId;
    const [shown, listed, peek, context] = await Promise.all([
      callOp(daemon, 'group_show', { group_id, detail: 'summary' }),
      callOp(daemon, 'actor_list', { group_id, include_unread: true }),
      callOp(daemon, 'inbox_peek', { group_id, actor_id: me, by: me, limit: PREVIEW_LIMIT }),
      callOp(daemon, 'context_get', { group_id, detail: 'overview' }),
    ]);
    const { group } = shown;
    const self = listed.actors.find((a) => a.id === me);
    const mail_pending = self?.unread_count ?? peek.messages.length;
    const next_calls = [
      ...(mail_pending > 0 ? ['cccc_inbox_read'] : []),
      'cccc_help',
      'cccc_context_get',
    ];
    return {
      identity: { group_id, actor_id: me, role: roleOf(listed.actors, me) },
      group: {
        group_id: group.group_id,
        title: group.title,
        topic: group.topic,
        state: group.state,
        active_scope_key: group.active_scope_key,
      },
      team: listed.actors.map((a) => ({ id: a.id, title: a.title, runtime: a.runtime, role: a.role, enabled: a.enabled, running: a.running })),
      inbox_preview: { messages: peek.messages, cursor: peek.cursor },
      mail_pending,
      context,
      next_calls,
    };
  },
});
