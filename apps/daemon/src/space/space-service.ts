import { join } from 'node:path';
import { GroupSpace, NotebookLmControlPlane } from '@cccc/group-space';
import type { HomeLayout } from '@cccc/groups';
import { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { GroupDocCache } from '../kernel/group-cache.js';

export interface SpaceDeps {
  readonly layout: HomeLayout;
  readonly groups: Pick<GroupDocCache, 'get'>;
  readonly home: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * One `GroupSpace` per group, opened on first use once the group is known (`group_not_found`
 * otherwise); opening replays the jobs a crashed predecessor left unsettled. Space mutations of
 * a group run one at a time on a lane of their own, never on the group's write lock, so a slow
 * or failing provider cannot hold up chat, context or actors.
 */
export class SpaceService implements Disposable {
  readonly notebooklm: NotebookLmControlPlane;
  private readonly open = new Map<string, Promise<GroupSpace>>();
  private readonly lanes = new KeyedMutex();

  constructor(private readonly deps: SpaceDeps) {
    this.notebooklm = new NotebookLmControlPlane(deps.home, deps.env ?? process.env);
  }

  /** The repo `space/` folder of the group's active scope (the first scope when none is active). */
  private spaceRoot(groupId: string): string | undefined {
    const doc = this.deps.groups.get(groupId);
    const scope = doc.scopes.find((s) => s.scope_key === doc.active_scope_key) ?? doc.scopes[0];
    return scope?.url ? join(scope.url, 'space') : undefined;
  }

  of(groupId: string): Promise<GroupSpace> {
    this.deps.groups.get(groupId);
    let space = this.open.get(groupId);
    if (!space) {
      const groupDir = this.deps.layout.groupDir(groupId);
      space = (async () => {
        const s = new GroupSpace({
          groupId,
          stateDir: join(groupDir, 'state', 'space'),
          dailyDir: join(groupDir, 'state', 'memory', 'daily'),
          spaceRoot: () => this.spaceRoot(groupId),
          notebooklm: this.notebooklm,
        });
        await s.recover();
        return s;
      })();
      this.open.set(groupId, space);
      space.catch(() => this.open.delete(groupId));
    }
    return space;
  }

  /** Run one mutating space op of a group after the previous one finished. */
  async mutate<T>(groupId: string, work: (space: GroupSpace) => Promise<T> | T): Promise<T> {
    const space = await this.of(groupId);
    return this.lanes.run(groupId, () => work(space));
  }

  async read<T>(groupId: string, work: (space: GroupSpace) => Promise<T> | T): Promise<T> {
    return work(await this.of(groupId));
  }

  [Symbol.dispose](): void {
    for (const s of this.open.values()) void s.then((x) => x.close()).catch(() => undefined);
    this.open.clear();
  }
}
