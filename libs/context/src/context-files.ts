import { join } from 'node:path';

/** The reference layout under `groups/<id>/context/` (REFERENCE_NOTES §2). */
export class ContextFiles {
  readonly dir: string;
  constructor(groupDir: string) {
    this.dir = join(groupDir, 'context');
  }
  get context(): string {
    return join(this.dir, 'context.yaml');
  }
  get agents(): string {
    return join(this.dir, 'agents.yaml');
  }
  get versionState(): string {
    return join(this.dir, 'version_state.json');
  }
  get tasksDir(): string {
    return join(this.dir, 'tasks');
  }
  task(id: string): string {
    return join(this.tasksDir, `${id}.yaml`);
  }
  /** Writers serialize on this flock, so another process (a hook helper, the Web) can share the store. */
  get lock(): string {
    return join(this.dir, '.context.lock');
  }
}
