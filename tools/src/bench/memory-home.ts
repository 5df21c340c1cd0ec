// A home with a long history for the cold-open rows of the memory section, written through the
// ledger library directly (appendMany in batches of 1,000, one fsync each: minutes faster than
// sends over IPC), rotated into ~5 MB segments as the daemon's own rule would, older ones gzipped.
import { statSync } from 'node:fs';
import { openGroupLedger, ledgerPaths, type AppendInput } from '@cccc/ledger';

const BATCH = 1000;
const ROTATE_AT = 5_000_000;
const TEXT = 'status of the build: tests pass, the migration is staged, next step is the rollout review. ';

function eventAt(i: number): AppendInput {
  const mode = i % 10 === 0 ? 'send' : i % 10 === 5 ? 'request_reply' : 'mail';
  const to = i % 7 === 0 ? ['@all'] : [i % 2 ? 'peer1' : 'peer2'];
  return {
    kind: 'chat.message',
    by: i % 3 === 0 ? 'user' : 'lead',
    data: { text: `${i} ${TEXT}${TEXT}`, message_mode: mode, to },
  };
}

/** Append events `[from, to)` to the group's ledger; peer1 reads its Mail now and then. */
export async function fillHistory(home: string, groupId: string, from: number, to: number): Promise<{ seconds: number }> {
  const t0 = performance.now();
  const store = await openGroupLedger({ home, groupId, roleOf: (a) => (a === 'lead' ? 'foreman' : 'peer') });
  const active = ledgerPaths(home, groupId).active;
  try {
    for (let i = from, batch = 0; i < to; i += BATCH, batch++) {
      const inputs: AppendInput[] = [];
      for (let j = i; j < Math.min(to, i + BATCH); j++) inputs.push(eventAt(j));
      await store.appendMany(inputs);
      if (batch % 10 === 9) while ((await store.inboxConsume({ actorId: 'peer1', limit: 1000 })).messages.length === 1000);
      if (statSync(active).size >= ROTATE_AT) await store.compact({ force: true, reason: 'bench history' });
    }
  } finally {
    await store.close();
  }
  return { seconds: (performance.now() - t0) / 1000 };
}
