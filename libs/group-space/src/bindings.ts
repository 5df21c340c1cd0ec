import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import type { Lane } from './lanes.js';

export type LaneBinding = {
  group_id: string;
  provider: string;
  lane: Lane;
  remote_space_id: string;
  bound_by: string;
  bound_at: string;
  status: 'bound' | 'unbound' | 'error';
};

export type Bindings = Record<Lane, LaneBinding>;

/** An unbound lane reports the spec's provider, notebooklm, exactly as a fresh reference group does. */
export const unbound = (groupId: string, lane: Lane): LaneBinding => ({
  group_id: groupId,
  provider: 'notebooklm',
  lane,
  remote_space_id: '',
  bound_by: '',
  bound_at: '',
  status: 'unbound',
});

/** `state/space/bindings.json`: both lanes' bindings, replaced atomically. */
export class BindingStore {
  constructor(
    readonly file: string,
    private readonly groupId: string,
  ) {}

  read(): Bindings {
    let doc: Partial<Record<Lane, LaneBinding>> = {};
    try {
      doc = (JSON.parse(readFileSync(this.file, 'utf8')) as { bindings?: Partial<Record<Lane, LaneBinding>> }).bindings ?? {};
    } catch {
      doc = {};
    }
    return { work: doc.work ?? unbound(this.groupId, 'work'), memory: doc.memory ?? unbound(this.groupId, 'memory') };
  }

  write(lane: Lane, binding: LaneBinding): Bindings {
    const next = { ...this.read(), [lane]: binding };
    writeFileAtomicSync(this.file, JSON.stringify({ v: 1, bindings: next }, null, 2));
    return next;
  }
}
