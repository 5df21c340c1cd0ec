import { z } from 'zod';
import { NotifyPriority } from '../kinds/notify.js';
import { defineOp } from './define.js';
import { ActorIdArg, ByArg, GroupIdArg, eventResult } from './shared.js';

// §8.10 System Notifications (not chat): no acknowledgement protocol exists for them.

/**
 * `target_actor_id: null` means broadcast. `im_visibility` defaults to internal in the handler
 * so IM bridges fail closed unless a producer opts in to public.
 */
export const system_notify = defineOp({
  summary: 'Append a system.notify event.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    kind: z.string().min(1).optional(),
    priority: NotifyPriority.optional(),
    title: z.string().optional(),
    message: z.string().optional(),
    target_actor_id: ActorIdArg.nullable().optional(),
    im_visibility: z.enum(['internal', 'public']).optional(),
    context: z.record(z.string(), z.unknown()).optional(),
  }),
  result: () => eventResult('system.notify'),
});
