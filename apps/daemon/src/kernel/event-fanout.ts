import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import type { StreamHub } from '../streams/stream-hub.js';
import type { CommitHooks } from './commit-hooks.js';
import type { GlobalFeed } from './global-feed.js';

const GLOBAL_KINDS = /^(group|actor)\./;

/**
 * Where an appended event goes once it is durable: the group's stream subscribers, the global
 * feed (group and actor changes), and the post-commit listeners. The ledger pool calls
 * `appended` from each store's `onAppended`, so no writer publishes by hand.
 */
export class EventFanout {
  constructor(
    private readonly streams: StreamHub,
    private readonly globalFeed: GlobalFeed,
    private readonly commits: CommitHooks,
  ) {}

  appended(event: CCCSEventV1): void {
    if (GLOBAL_KINDS.test(event.kind)) this.globalFeed.push(event);
    this.streams.notify(event.group_id);
    this.commits.published([event]);
  }

  /** A global change with no ledger to live in any more (a deleted group). */
  publishGlobal(event: CCCSEventV1): void {
    this.globalFeed.push(event);
    this.streams.notify('*');
    // In-process services hear it too (the IM bridge supervisor stops a deleted group's bridge).
    this.commits.published([event]);
  }
}
