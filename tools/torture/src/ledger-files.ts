import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

// What is really on disk, read without the daemon: the active ledger.jsonl plus sealed segments
// (plain or gzipped) under state/ledger/segments, in sequence order.

export interface LedgerEvent {
  readonly id: string;
  readonly kind: string;
  readonly by: string;
  readonly ts: string;
  readonly data: Record<string, unknown>;
}

export interface LedgerRead {
  readonly events: LedgerEvent[];
  /** Complete lines that are not JSON events. */
  readonly damaged: string[];
  /** Bytes after the last newline of the active file. */
  readonly tornTailBytes: number;
}

export function activeLedger(home: string, gid: string): string {
  return join(home, 'groups', gid, 'ledger.jsonl');
}

/** Size of every group's active ledger: a rejected request must leave all of them as they were. */
export function ledgerSizes(home: string): Map<string, number> {
  const sizes = new Map<string, number>();
  const groups = join(home, 'groups');
  if (!existsSync(groups)) return sizes;
  for (const gid of readdirSync(groups)) {
    const file = activeLedger(home, gid);
    sizes.set(gid, existsSync(file) ? statSync(file).size : 0);
  }
  return sizes;
}

export function sameSizes(a: Map<string, number>, b: Map<string, number>): string | undefined {
  for (const [gid, size] of b) if (a.get(gid) !== size) return `${gid}: ${a.get(gid) ?? 'absent'} -> ${size} bytes`;
  for (const gid of a.keys()) if (!b.has(gid)) return `${gid} disappeared`;
  return undefined;
}

function segmentTexts(home: string, gid: string): string[] {
  const dir = join(home, 'groups', gid, 'state', 'ledger', 'segments');
  if (!existsSync(dir)) return [];
  const bySeq = new Map<number, string>();
  for (const name of readdirSync(dir)) {
    const m = /^ledger\.[^.]+\.(\d+)\.jsonl(\.gz)?$/.exec(name);
    if (!m) continue;
    const seq = Number(m[1]);
    // A plain file and its .gz: the plain one is the source (an interrupted gzip step).
    if (bySeq.has(seq) && !m[2]) bySeq.set(seq, name);
    else if (!bySeq.has(seq)) bySeq.set(seq, name);
  }
  return [...bySeq.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, name]) => {
      const raw = readFileSync(join(dir, name));
      return (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    });
}

export function readLedger(home: string, gid: string): LedgerRead {
  const active = existsSync(activeLedger(home, gid)) ? readFileSync(activeLedger(home, gid), 'utf8') : '';
  const events: LedgerEvent[] = [];
  const damaged: string[] = [];
  const lastNl = active.lastIndexOf('\n');
  const tornTailBytes = Buffer.byteLength(active.slice(lastNl + 1));
  for (const text of [...segmentTexts(home, gid), active.slice(0, lastNl + 1)]) {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const event = JSON.parse(line) as LedgerEvent;
        if (typeof event.id !== 'string' || typeof event.kind !== 'string') damaged.push(line.slice(0, 120));
        else events.push(event);
      } catch {
        damaged.push(line.slice(0, 120));
      }
    }
  }
  return { events, damaged, tornTailBytes };
}
