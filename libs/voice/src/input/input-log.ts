import { appendFile, readFile, open } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { FileLock, writeFileAtomic } from '@cccc/durable-fs';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { idleReviewAfterInput, idleReviewOnStop, type IdleReviewReason, type IdleReviewState } from './idle-review.js';

/** One semantic input (`input_events.jsonl` line). */
export type InputRecord = {
  seq: number;
  input_id: string;
  kind: string;
  document_path?: string;
  request_id?: string;
  input_append_id?: string;
  text: string;
  instruction?: string;
  source_text?: string;
  language?: string;
  trigger?: Record<string, unknown>;
  /** Transcript inputs: the session and the stable segments compacted into this input. */
  session_id?: string;
  segment_id?: string;
  source_segment_ids?: string[];
  by: string;
  created_at: string;
};

/** `input_state.json`: the daemon-owned read cursor and which inputs' notifies were emitted. */
export interface InputState extends IdleReviewState {
  schema: 1;
  secretary_read_cursor: number;
  notified: Record<string, string>;
  updated_at?: string;
}

const MAX_NOTIFIED = 500;

/**
 * The semantic input authority of one group: `$CCCC_HOME/voice-secretary/<gid>/input_events.jsonl`
 * (append-only, fsynced) and its sibling cursor `input_state.json`, every access under a kernel
 * flock on `input_state.json.lock`. The actor never sees or manages the cursor.
 */
export class InputLog {
  readonly logPath: string;
  readonly statePath: string;
  /** Whether the log read last ended mid-line (a torn write): the next append starts a fresh line. */
  private torn = false;

  constructor(home: string, groupId: string) {
    const dir = join(home, 'voice-secretary', groupId);
    this.logPath = join(dir, 'input_events.jsonl');
    this.statePath = join(dir, 'input_state.json');
  }

  private async locked<T>(body: () => Promise<T>): Promise<T> {
    let lock: FileLock;
    try {
      lock = await FileLock.acquire(`${this.statePath}.lock`, 10_000);
    } catch (err) {
      throw voiceError(VoiceErrorCodes.ioError, `input_state.json lock: ${(err as Error).message}`);
    }
    try {
      return await body();
    } finally {
      lock.release();
    }
  }

  private async records(): Promise<InputRecord[]> {
    let text: string;
    try {
      text = await readFile(this.logPath, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.torn = false;
        return [];
      }
      throw voiceError(VoiceErrorCodes.ioError, `cannot read input_events.jsonl: ${(err as Error).message}`);
    }
    this.torn = text.length > 0 && !text.endsWith('\n');
    const out: InputRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as InputRecord);
      } catch {
        // a torn last line after a crash is not an input
      }
    }
    return out;
  }

  private async state(): Promise<InputState> {
    try {
      const doc = JSON.parse(await readFile(this.statePath, 'utf8')) as Partial<InputState>;
      return { ...doc, schema: 1, secretary_read_cursor: Number(doc.secretary_read_cursor) || 0, notified: doc.notified ?? {} };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { schema: 1, secretary_read_cursor: 0, notified: {} };
      throw voiceError(VoiceErrorCodes.ioError, 'input_state.json is unreadable');
    }
  }

  private async saveState(state: InputState): Promise<void> {
    const keys = Object.keys(state.notified);
    const notified = Object.fromEntries(keys.slice(Math.max(0, keys.length - MAX_NOTIFIED)).map((k) => [k, state.notified[k]!]));
    await writeFileAtomic(this.statePath, `${JSON.stringify({ ...state, notified, updated_at: new Date().toISOString() }, null, 2)}\n`, 0o600);
  }

  /**
   * Append one input unless the complete log already holds one with the same `input_append_id`
   * (an exact retry): then that record is answered with `created: false`. `notifyEventId` is the
   * notify already emitted for it, if any.
   */
  async append(input: Omit<InputRecord, 'seq' | 'input_id' | 'created_at'>): Promise<{ record: InputRecord; created: boolean; notifyEventId?: string }> {
    return this.locked(async () => {
      const all = await this.records();
      const state = await this.state();
      const prior = input.input_append_id ? all.find((r) => r.input_append_id === input.input_append_id && r.kind === input.kind) : undefined;
      if (prior) return { record: prior, created: false, notifyEventId: state.notified[prior.input_id] };
      const record: InputRecord = { ...input, seq: (all.at(-1)?.seq ?? 0) + 1, input_id: `vin_${randomUUID().replace(/-/g, '')}`, created_at: new Date().toISOString() };
      await mkdir(join(this.logPath, '..'), { recursive: true });
      try {
        await appendFile(this.logPath, `${this.torn ? '\n' : ''}${JSON.stringify(record)}\n`, { mode: 0o600 });
        const fh = await open(this.logPath, 'r');
        try {
          await fh.sync();
        } finally {
          await fh.close();
        }
      } catch (err) {
        throw voiceError(VoiceErrorCodes.ioError, `cannot append input_events.jsonl: ${(err as Error).message}`);
      }
      return { record, created: true };
    });
  }

  /** Remember that `inputId`'s notify was emitted as `eventId` (a retry then emits none). */
  async markNotified(inputId: string, eventId: string): Promise<void> {
    await this.locked(async () => {
      const state = await this.state();
      state.notified[inputId] = eventId;
      await this.saveState(state);
    });
  }

  /** Every input after the read cursor; the cursor moves past them at once. */
  async readUnread(): Promise<InputRecord[]> {
    return this.locked(async () => {
      const state = await this.state();
      const unread = (await this.records()).filter((r) => r.seq > state.secretary_read_cursor);
      if (unread.length > 0) {
        state.secretary_read_cursor = unread.at(-1)!.seq;
        await this.saveState(state);
      }
      return unread;
    });
  }

  async hasUnread(): Promise<boolean> {
    return this.locked(async () => {
      const state = await this.state();
      return (await this.records()).some((r) => r.seq > state.secretary_read_cursor);
    });
  }

  /** The first record (over the complete log) that `match` accepts. */
  async find(match: (r: InputRecord) => boolean): Promise<{ record: InputRecord; notifyEventId?: string } | undefined> {
    return this.locked(async () => {
      const record = (await this.records()).find(match);
      if (!record) return undefined;
      return { record, notifyEventId: (await this.state()).notified[record.input_id] };
    });
  }

  /**
   * Under the state lock: append the input `make` builds unless `existing` finds one in the
   * complete log (revision-only records reuse the session's ASR input).
   */
  async appendUnless(existing: (r: InputRecord) => boolean, make: () => Omit<InputRecord, 'seq' | 'input_id' | 'created_at'> | undefined): Promise<{ record: InputRecord; created: boolean; notifyEventId?: string } | undefined> {
    const found = await this.find(existing);
    if (found) return { ...found, created: false };
    const input = make();
    return input ? this.append(input) : undefined;
  }

  /** Count one transcript input toward the idle review; answers why a review is due now, if it is. */
  async noteTranscriptInput(stop: boolean, now = Date.now()): Promise<IdleReviewReason | undefined> {
    return this.locked(async () => {
      const state = await this.state();
      const out = idleReviewAfterInput(state, stop, now);
      state.flush_count_since_idle_review = out.count;
      await this.saveState(state);
      return out.reason;
    });
  }

  /** A stop flush with no new input: a review is due when inputs arrived since the last one. */
  async stopReviewDue(): Promise<boolean> {
    return this.locked(async () => idleReviewOnStop(await this.state(), (await this.records()).at(-1)?.seq ?? 0));
  }

  /** Remember an idle review was requested (the counter restarts, the cooldown runs from now). */
  async markIdleReview(seq: number): Promise<void> {
    await this.locked(async () => {
      const state = await this.state();
      state.flush_count_since_idle_review = 0;
      state.last_idle_review_at = new Date().toISOString();
      state.last_idle_review_input_seq = Math.max(state.last_idle_review_input_seq ?? 0, seq);
      await this.saveState(state);
    });
  }
}
