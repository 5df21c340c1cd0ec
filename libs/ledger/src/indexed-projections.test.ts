import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from './open-ledger.js';
import { messageHistoryOf } from './projections/history.js';
import { TempHomes } from './test-support/homes.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());

describe('history text query walks the index in pages', () => {
  it.each([1, 2, 3, 7])('page size %i gives the full-scan answer', async (page) => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: 'g_paging000001', historyQueryPage: page });
    const senders = ['user', 'peer1', 'peer2'];
    const targets = [['peer1'], ['@all'], ['peer2'], ['@peers'], ['user']];
    for (let i = 0; i < 60; i++) {
      const text = i % 7 === 0 ? `needle ${i}` : `hay ${i}`;
      await store.append({ kind: 'chat.message', by: senders[i % 3]!, data: { text, message_mode: i % 2 ? 'mail' : 'send', to: targets[i % 5]! } });
    }
    const events = [...store.readForward()];
    for (const limit of [1, 2, 3, 50]) {
      for (const mode of ['all', 'mail', 'send'] as const) {
        const q = { actorId: 'peer1', mode, query: 'NEEDLE', limit };
        expect(store.messageHistory(q)).toEqual(messageHistoryOf(events, { ...q, role: 'peer' }));
      }
    }
  });
});
