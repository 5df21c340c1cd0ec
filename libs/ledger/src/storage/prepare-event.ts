import { isInputOfKind, kindDataSchema, type StoredEvent } from '@cccc/ipc-protocol';
import { unlinkSync } from 'node:fs';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import { formatTs, newEventId } from '../event-format.js';
import type { AppendInput, Clock, LedgerEvent } from '../types.js';
import { encodeEvent } from './line-codec.js';
import { MAX_RECORD_BYTES } from './limits.js';
import { planChatSpill } from './spill.js';

export interface PreparedEvent<K extends string = string> {
  event: StoredEvent<K>;
  /** `encodeEvent(event)`: the line's text, kept for answers that splice it in. */
  text: string;
  line: Buffer;
  /**
   * A spilled blob being made durable (on the thread pool): the event may be written only once
   * it resolved; when it rejects, the append fails and nothing is written.
   */
  blob: Promise<void> | undefined;
  /** Undo side files (a spilled blob) when the event is not appended after all. */
  discard(): void;
}

/** Wait for the blobs of `prepared`; if any failed, discard them all and throw the first failure. */
export async function blobsDurable(prepared: readonly PreparedEvent[]): Promise<void> {
  const pending = prepared.filter((p) => p.blob);
  if (pending.length === 0) return;
  const results = await Promise.allSettled(pending.map((p) => p.blob));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!failed) return;
  for (const p of prepared) p.discard();
  throw ledgerError(LedgerErrorCodes.writeFailed, `ledger append failed: ${(failed.reason as Error).message}`);
}

/**
 * Validate, stamp and encode one append before it joins a batch. Everything that can reject
 * an append happens here, before any byte is written, so a rejected append writes nothing.
 */
/** `groupDir` undefined: no blob spill (the in-memory store keeps long text inline). */
export function prepareEvent<K extends string>(input: AppendInput<K>, groupId: string, groupDir: string | undefined, clock: Clock | undefined): PreparedEvent<K> {
  if (typeof input.kind !== 'string' || input.kind.length === 0) {
    throw ledgerError(LedgerErrorCodes.invalidEvent, 'kind must be a nonempty string');
  }
  if (typeof input.by !== 'string' || input.by.length === 0) {
    throw ledgerError(LedgerErrorCodes.invalidEvent, 'by must be a nonempty string');
  }
  if (input.data === null || typeof input.data !== 'object' || Array.isArray(input.data)) {
    throw ledgerError(LedgerErrorCodes.invalidEvent, 'data must be an object');
  }
  const schema = kindDataSchema(input.kind);
  if (schema) {
    const parsed = schema.safeParse(input.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw ledgerError(LedgerErrorCodes.invalidEvent, `invalid ${input.kind} data: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`, {
        kind: input.kind,
        field: issue?.path.join('.') ?? '',
      });
    }
  }
  const id = newEventId();
  const ts = formatTs(clock ? clock() : new Date(), clock !== undefined);
  const spill = isInputOfKind(input, 'chat.message') && groupDir !== undefined ? planChatSpill(groupDir, id, input.data) : undefined;
  const stored: LedgerEvent = {
    v: 1,
    id,
    ts,
    kind: input.kind,
    group_id: groupId,
    scope_key: input.scope_key ?? '',
    by: input.by,
    data: spill ? spill.data : input.data,
  };
  // The schema check above is what makes a known kind's data its registry type.
  const event = stored as StoredEvent<K>;
  const text = encodeEvent(event);
  const line = Buffer.from(text + '\n', 'utf8');
  if (line.length > MAX_RECORD_BYTES) {
    throw ledgerError(LedgerErrorCodes.eventTooLarge, `event record is ${line.length} bytes; the limit is ${MAX_RECORD_BYTES}`, {
      bytes: line.length,
      limit: MAX_RECORD_BYTES,
    });
  }
  const blob = spill?.write();
  blob?.catch(() => undefined); // observed by blobsDurable; never an unhandled rejection
  const removeBlob = () => {
    try {
      if (spill) unlinkSync(spill.absPath);
    } catch {
      /* already gone */
    }
  };
  return {
    event,
    text,
    line,
    blob,
    // A blob still being written is removed once its write ended (a failed one removed itself).
    discard: () => void blob?.then(removeBlob, () => undefined),
  };
}
