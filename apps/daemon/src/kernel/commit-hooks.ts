import type { CCCSEventV1 } from '@cccc/ipc-protocol';

export type PublishedListener = (events: readonly CCCSEventV1[]) => void;
export type MessageCommitHook = (groupId: string, event: CCCSEventV1) => Promise<void>;

/**
 * Where services hear about committed events without the writers knowing them: `onPublished`
 * sees every appended event (sync, after the append) and the global-only event of a deleted group, `onMessageCommitted` runs for each new
 * chat.message / system.notify before the writing op returns (delivery planning and the
 * user-send wake happen there, so an op's effects are in place when its caller hears back).
 */
export class CommitHooks {
  private readonly publishedListeners = new Set<PublishedListener>();
  private readonly messageHooks = new Set<MessageCommitHook>();

  onPublished(listener: PublishedListener): Disposable {
    this.publishedListeners.add(listener);
    return { [Symbol.dispose]: () => void this.publishedListeners.delete(listener) };
  }

  onMessageCommitted(hook: MessageCommitHook): Disposable {
    this.messageHooks.add(hook);
    return { [Symbol.dispose]: () => void this.messageHooks.delete(hook) };
  }

  published(events: readonly CCCSEventV1[]): void {
    for (const l of [...this.publishedListeners]) l(events);
  }

  async messageCommitted(groupId: string, event: CCCSEventV1): Promise<void> {
    for (const hook of [...this.messageHooks]) await hook(groupId, event);
  }
}
