import { principalOf } from '@cccc/groups';
import { syncView } from '@cccc/context';
import type { OpRouter } from '@cccc/ipc-protocol';
import type { ContextService } from '../context/context-service.js';
import type { TrackedSend } from '../context/tracked-send.js';

export interface ContextOpsDeps {
  readonly context: ContextService;
  readonly trackedSend: TrackedSend;
}

/** §8.8 Context and Tasks and §8.6 tracked_send: thin handlers over the context service. */
export function registerContextOps(router: OpRouter, { context, trackedSend }: ContextOpsDeps): void {
  // §8.8: the daemon defaults detail to full (the Web route defaults to summary).
  router.register('context_get', (args) => context.getSerialized(args.group_id, args.detail ?? 'full'));
  router.register('context_sync', async (args) =>
    syncView(await context.sync(args.group_id, principalOf(args.by), { ops: args.ops, dry_run: args.dry_run, if_version: args.if_version })),
  );
  router.register('task_list', (args) => context.list(args.group_id, args));
  router.register('tracked_send', (args) => trackedSend.run(args));
}
