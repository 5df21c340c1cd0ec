import type { ActorTerminal } from '@cccc/pty-runtime';

/**
 * The live PTY terminals this daemon owns, by group and actor. The lifecycle service fills it
 * (start, stop, exit); attach, terminal ops and delivery only look terminals up here.
 */
export class RuntimeRegistry {
  private readonly terminals = new Map<string, ActorTerminal>();

  private static key(groupId: string, actorId: string): string {
    return `${groupId}\u0000${actorId}`;
  }

  get(groupId: string, actorId: string): ActorTerminal | undefined {
    return this.terminals.get(RuntimeRegistry.key(groupId, actorId));
  }

  set(groupId: string, actorId: string, terminal: ActorTerminal): void {
    this.terminals.set(RuntimeRegistry.key(groupId, actorId), terminal);
  }

  delete(groupId: string, actorId: string): void {
    this.terminals.delete(RuntimeRegistry.key(groupId, actorId));
  }

  /** Every registered terminal, for shutdown and diagnostics. */
  entries(): Array<{ groupId: string; actorId: string; terminal: ActorTerminal }> {
    return [...this.terminals].map(([k, terminal]) => {
      const [groupId, actorId] = k.split('\u0000') as [string, string];
      return { groupId, actorId, terminal };
    });
  }
}
