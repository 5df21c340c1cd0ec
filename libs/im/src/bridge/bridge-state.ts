import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@cccc/durable-fs';
import { z } from 'zod';

/** How many posted deliveries and seen update ids are remembered (oldest forgotten first). */
const MEMORY = 2000;

const BridgeStateDoc = z.object({
  v: z.literal(1).catch(1),
  /** The last ledger event the outbound side finished with; the stream resumes after it. */
  cursor_event_id: z.string().nullish().catch(null),
  /** `<event_id>|<target>` for every outbound post claimed, so a restart never posts twice. */
  posted: z.array(z.string()).catch([]),
  /** Inbound update ids already answered (pending-key replies to unknown chats). */
  seen_updates: z.array(z.string()).catch([]),
});
type BridgeStateDoc = z.infer<typeof BridgeStateDoc>;

export const BRIDGE_STATE_FILE = 'im_bridge_state.json';

/**
 * The bridge's own durable memory (groups/<gid>/state/im_bridge_state.json). One bridge runs per
 * group (the supervisor and the token lock see to it), so it is written without the authority
 * lock, but always atomically and before the effect it records is acknowledged.
 */
export class BridgeStateStore {
  private doc: BridgeStateDoc = { v: 1, cursor_event_id: null, posted: [], seen_updates: [] };
  private posted = new Set<string>();
  private seen = new Set<string>();
  private readonly path: string;

  constructor(stateDir: string) {
    this.path = join(stateDir, BRIDGE_STATE_FILE);
  }

  async load(): Promise<this> {
    try {
      this.doc = BridgeStateDoc.parse(JSON.parse(await readFile(this.path, 'utf8')));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && !(err instanceof SyntaxError)) throw err;
    }
    this.posted = new Set(this.doc.posted);
    this.seen = new Set(this.doc.seen_updates);
    return this;
  }

  get cursor(): string | undefined {
    return this.doc.cursor_event_id ?? undefined;
  }

  hasPosted(key: string): boolean {
    return this.posted.has(key);
  }

  hasSeen(updateKey: string): boolean {
    return this.seen.has(updateKey);
  }

  async markPosted(key: string): Promise<void> {
    this.posted.add(key);
    this.doc.posted = [...this.posted].slice(-MEMORY);
    this.posted = new Set(this.doc.posted);
    await this.save();
  }

  async unmarkPosted(key: string): Promise<void> {
    if (!this.posted.delete(key)) return;
    this.doc.posted = [...this.posted];
    await this.save();
  }

  async markSeen(updateKey: string): Promise<void> {
    this.seen.add(updateKey);
    this.doc.seen_updates = [...this.seen].slice(-MEMORY);
    this.seen = new Set(this.doc.seen_updates);
    await this.save();
  }

  async advance(eventId: string): Promise<void> {
    this.doc.cursor_event_id = eventId;
    await this.save();
  }

  private save(): Promise<void> {
    return writeFileAtomic(this.path, `${JSON.stringify(this.doc)}\n`, 0o600);
  }
}
