import { z } from 'zod';
import { callOp } from '../daemon-port.js';
import { defineTool, type ToolContext } from '../tool.js';

// §8.16 / §8.6: cccc_im_bind has no action selector and maps directly to im_bind_chat. It is in a
// pack (pack:file-im, as in the reference) because binding grants a chat the right to speak as
// the user; the daemon still requires group.settings (user or foreman) for the op.

export const imBind = defineTool({
  name: 'cccc_im_bind',
  description:
    'Authorize a pending IM chat: pass the one-time key the bot sent to that chat. The chat is then authorized and subscribed for outbound delivery. Returns {chat_id, thread_id, platform}.',
  pack: 'pack:file-im',
  input: z.object({ key: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async ({ identity, daemon }: ToolContext, args) =>
    callOp(daemon, 'im_bind_chat', { group_id: identity.groupId, by: identity.actorId, key: args.key }),
});
