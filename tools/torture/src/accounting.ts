import type { LedgerEvent } from './ledger-files.js';

// Acknowledged-event accounting for the kill -9 cycles, a pure core: the crash family records
// what the daemon acknowledged; `verify*` hold those acknowledgements against the ledger on disk.

export interface MailCursorSeen {
  readonly event_id: string;
  readonly ts: string;
}

export class CrashAccount {
  /** client_id -> event id the daemon acknowledged for it. */
  readonly acked = new Map<string, string>();
  /** Sent, no answer (the daemon died meanwhile): retried with the same client_id after restart. */
  readonly unanswered = new Set<string>();
  /** Mail event ids handed out by acknowledged inbox_read calls, with the read that did. */
  private readonly consumedBy = new Map<string, number>();
  /** Every cursor the daemon acknowledged or showed, in the order seen. */
  readonly cursors: Array<{ readonly cursor: MailCursorSeen; readonly from: string }> = [];
  readonly violations: string[] = [];
  private reads = 0;

  sent(clientId: string): void {
    this.unanswered.add(clientId);
  }

  ack(clientId: string, eventId: string): void {
    const earlier = this.acked.get(clientId);
    if (earlier !== undefined && earlier !== eventId) this.violations.push(`client_id ${clientId} acknowledged as ${earlier} and later as ${eventId}`);
    this.acked.set(clientId, eventId);
    this.unanswered.delete(clientId);
  }

  /** An acknowledged inbox_read: its messages are consumed, its cursor is the new position. */
  read(messageIds: readonly string[], cursor: MailCursorSeen, from: string): void {
    const read = ++this.reads;
    for (const id of messageIds) {
      const earlier = this.consumedBy.get(id);
      if (earlier !== undefined) this.violations.push(`mail ${id} handed out by read #${earlier} and again by read #${read} (${from}): the cursor went back`);
      else this.consumedBy.set(id, read);
    }
    this.cursors.push({ cursor, from });
  }

  /** A non-consuming look (inbox_peek after a restart): nothing consumed may be offered again. */
  peek(messageIds: readonly string[], cursor: MailCursorSeen, from: string): void {
    const again = messageIds.filter((id) => this.consumedBy.has(id));
    if (again.length > 0) this.violations.push(`${from}: ${again.length} consumed mail offered again (first ${again[0]}): the cursor went back`);
    this.cursors.push({ cursor, from });
  }

  get consumedCount(): number {
    return this.consumedBy.size;
  }
}

/** Each acknowledged write is in the ledger exactly once, and no client_id of ours is there twice. */
export function verifyWrites(account: CrashAccount, events: readonly LedgerEvent[], clientIdOf: (e: LedgerEvent) => string | undefined): string[] {
  const problems: string[] = [];
  const byId = new Map<string, number>();
  const byClient = new Map<string, LedgerEvent[]>();
  for (const event of events) {
    byId.set(event.id, (byId.get(event.id) ?? 0) + 1);
    const clientId = clientIdOf(event);
    if (clientId !== undefined) byClient.set(clientId, [...(byClient.get(clientId) ?? []), event]);
  }
  for (const [clientId, eventId] of account.acked) {
    const count = byId.get(eventId) ?? 0;
    if (count !== 1) problems.push(`acknowledged ${clientId} (${eventId}) is in the ledger ${count} times`);
    else if (!byClient.get(clientId)?.some((e) => e.id === eventId)) problems.push(`acknowledged ${eventId} does not carry client_id ${clientId}`);
  }
  for (const [clientId, list] of byClient) {
    if (list.length > 1) problems.push(`client_id ${clientId} appended ${list.length} times (${list.map((e) => e.id).join(', ')})`);
    if (!account.acked.has(clientId)) problems.push(`client_id ${clientId} is in the ledger but was never acknowledged, not even on retry`);
  }
  for (const clientId of account.unanswered) problems.push(`client_id ${clientId} was never acknowledged, not even on retry`);
  return problems;
}

/** Cursor positions, by ledger order of their event ids, never decrease. */
export function verifyCursors(account: CrashAccount, events: readonly LedgerEvent[]): string[] {
  const position = new Map(events.map((e, i) => [e.id, i] as const));
  const problems: string[] = [];
  let high = -1;
  let highFrom = 'start';
  for (const { cursor, from } of account.cursors) {
    const at = cursor.event_id === '' ? -1 : position.get(cursor.event_id);
    if (at === undefined) {
      problems.push(`${from}: cursor ${cursor.event_id} names no event of the ledger`);
      continue;
    }
    if (at < high) problems.push(`${from}: cursor at ledger position ${at}, behind ${high} seen at ${highFrom}`);
    else if (at > high) {
      high = at;
      highFrom = from;
    }
  }
  return problems;
}
