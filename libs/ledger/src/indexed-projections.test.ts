import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from './open-ledger.js';
import { messageHistoryOf } from './projections/history.js';
import { searchOf, tailOf } from './projections/pages.js';
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

describe('search by kind walks the kind index in pages', () => {
  it.each([1, 2, 3, 7])('page size %i gives the full-scan answer', async (page) => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: 'g_paging000002', historyQueryPage: page });
    const kinds = ['chat.message', 'system.notify', 'x.vendor'];
    for (let i = 0; i < 60; i++) {
      const text = i % 5 === 0 ? `needle ${i}` : `hay ${i}`;
      const kind = kinds[i % 3]!;
      if (kind === 'chat.message') await store.append({ kind, by: 'user', data: { text, message_mode: 'send', to: ['peer1'] } });
      else if (kind === 'system.notify') await store.append({ kind, by: 'system', data: { kind: 'info', title: text } });
      else await store.append({ kind, by: 'user', data: { text } });
    }
    const events = [...store.readForward()];
    for (const limit of [1, 2, 3, 50]) {
      for (const only of [['chat.message'], ['system.notify', 'x.vendor'], kinds]) {
        const q = { query: 'NEEDLE', kinds: only, limit };
        expect(store.search(q)).toEqual(searchOf(events, q));
        expect(store.tail({ kinds: only, limit })).toEqual(tailOf(events, { kinds: only, limit }));
      }
    }
  });
});
