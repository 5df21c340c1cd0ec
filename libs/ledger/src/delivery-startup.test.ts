import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from './open-ledger.js';
import { TempHomes } from './test-support/homes.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_delivery0001';

describe('delivery recovery at daemon start', () => {
  it('opening with settleStrandedDeliveries turns a previous process’s claims into ambiguous facts', async () => {
    const home = homes.make();
    let source = '';
    {
      await using previous = await openGroupLedger({ home, groupId: G });
      await previous.append({ kind: 'actor.add', by: 'user', data: { actor: { id: 'peer1', created_at: '2026-11-30T08:00:00.000000Z' } } });
      source = (await previous.append({ kind: 'chat.message', by: 'user', data: { text: 'x', message_mode: 'send', to: ['peer1'] } })).event.id;
      const claim = await previous.claimDelivery({ actorId: 'peer1', sourceEventId: source, transport: 'pty' });
      expect(claim.claimed).toBe(true);
      // the previous daemon dies before recording an outcome
    }
    {
      await using reader = await openGroupLedger({ home, groupId: G }); // a CLI reader must not settle
      expect(reader.deliveryState(source).map((f) => f.state)).toEqual(['claimed']);
    }
    await using daemon = await openGroupLedger({ home, groupId: G, settleStrandedDeliveries: true });
    const [fact] = daemon.deliveryState(source);
    expect(fact).toMatchObject({ actor_id: 'peer1', state: 'ambiguous' });
    const settled = daemon.findById(fact!.event_id)!;
    expect(settled).toMatchObject({ kind: 'runtime.delivery', by: 'system', scope_key: '' });
    expect(settled.data).toMatchObject({ state: 'ambiguous', source_event_id: source, transport: 'pty' });
  });
});
