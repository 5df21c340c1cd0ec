import { expect } from 'vitest';
import { deliveryIdFor } from '../projections/delivery.js';
import { actorAdd, chat, codeOf, type Check, type WithStore } from './helpers.js';

/** Contract cases: obligations, delivery, strandedClaims. */
export function deliveryCases(check: Check, withStore: WithStore): void {
  check('obligations', 'open / replied / cancelled with append order deciding races', () =>
    withStore({}, async (s) => {
      const src = (await s.append(chat('user', ['peer1', 'peer2', 'peer3'], 'request_reply', 'please answer'))).event;
      const status = () => Object.fromEntries(s.replyObligations(src.id).map((o) => [o.actor_id, o.status]));
      expect(status()).toEqual({ peer1: 'open', peer2: 'open', peer3: 'open' });
      await s.append(chat('peer1', ['user'], 'send', 'answer', { reply_to: src.id }));
      await s.append({ kind: 'chat.reply_request.cancelled', by: 'peer2', data: { source_event_id: src.id } }); // not the sender: ignored
      expect(status()).toEqual({ peer1: 'replied', peer2: 'open', peer3: 'open' });
      await s.append({ kind: 'chat.reply_request.cancelled', by: 'user', data: { source_event_id: src.id } });
      await s.append(chat('peer2', ['user'], 'mail', 'late answer', { reply_to: src.id }));
      expect(status()).toEqual({ peer1: 'replied', peer2: 'cancelled', peer3: 'cancelled' });
      const plain = (await s.append(chat('user', ['peer1'], 'send', 'no obligation'))).event;
      expect(s.replyObligations(plain.id)).toEqual([]);
    }),
  );

  check('delivery', 'claimed → accepted | failed | ambiguous, deterministic delivery_id', () =>
    withStore({}, async (s) => {
      await s.append(actorAdd('peer1', '2026-11-30T08:42:38.902098Z'));
      const src = (await s.append(chat('user', ['peer1'], 'send', 'hello'))).event;
      const claim = await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
      expect(claim.claimed).toBe(true);
      expect(claim.delivery_id).toBe(deliveryIdFor(s.groupId, 'peer1', '2026-11-30T08:42:38.902098Z', src.id));
      const again = await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
      expect(again).toMatchObject({ claimed: false, refusal: 'in_progress' });
      await s.settleDelivery({ actorId: 'peer1', sourceEventId: src.id, state: 'failed', reason: 'pty closed' });
      expect(s.deliveryState(src.id).map((f) => f.state)).toEqual(['failed']);
      expect(await codeOf(s.settleDelivery({ actorId: 'peer1', sourceEventId: src.id, state: 'accepted' }))).toBe('illegal_delivery_transition');
      const retry = await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
      expect(retry.claimed && retry.delivery_id).toBe(claim.delivery_id);
      await s.settleDelivery({ actorId: 'peer1', sourceEventId: src.id, state: 'accepted' });
      expect(await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' })).toMatchObject({ claimed: false, refusal: 'already_accepted' });
      const [fact] = s.deliveryState(src.id);
      expect(fact).toMatchObject({ actor_id: 'peer1', state: 'accepted', delivery_id: claim.delivery_id, transport: 'pty' });
      expect(await codeOf(s.settleDelivery({ actorId: 'peer9', sourceEventId: src.id, state: 'accepted' }))).toBe('illegal_delivery_transition');
    }),
  );

  check('strandedClaims', 'startup settles leftover claims to ambiguous; ambiguous needs force', () =>
    withStore({}, async (s) => {
      await s.append(actorAdd('peer1'));
      const src = (await s.append(chat('user', ['peer1', 'peer2'], 'send', 'hello'))).event;
      await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
      await s.claimDelivery({ actorId: 'peer2', sourceEventId: src.id, transport: 'pty' });
      await s.settleDelivery({ actorId: 'peer2', sourceEventId: src.id, state: 'accepted' });
      const settled = await s.settleStrandedClaims();
      expect(settled.map((e) => [e.data.actor_id, e.data.state])).toEqual([['peer1', 'ambiguous']]);
      expect(s.deliveryState(src.id).map((f) => [f.actor_id, f.state])).toEqual([['peer1', 'ambiguous'], ['peer2', 'accepted']]);
      expect(await s.settleStrandedClaims()).toEqual([]);
      expect(await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' })).toMatchObject({ claimed: false, refusal: 'ambiguous' });
      expect((await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty', forceAmbiguous: true })).claimed).toBe(true);
    }),
  );

  check('deliveryConfirmation', 'the latest x.cccc.delivery_confirmation per recipient; other kinds and bad states are ignored', () =>
    withStore({}, async (s) => {
      await s.append(actorAdd('peer1'));
      const src = (await s.append(chat('user', ['peer1', 'peer2'], 'send', 'hello'))).event;
      const confirm = (actor_id: string, state: string) => ({
        kind: 'x.cccc.delivery_confirmation',
        by: 'system',
        data: { actor_id, source_event_id: src.id, delivery_id: `delivery:${actor_id}:${'a'.repeat(24)}`, state, evidence: 'test', latency_ms: null },
      });
      expect(s.deliveryConfirmations(src.id)).toEqual([]);
      await s.append(confirm('peer2', 'unconfirmed'));
      await s.append(confirm('peer1', 'unconfirmed'));
      await s.append(confirm('peer1', 'confirmed'));
      expect(s.deliveryConfirmations(src.id)).toEqual([
        { actor_id: 'peer1', source_event_id: src.id, delivery_id: `delivery:peer1:${'a'.repeat(24)}`, state: 'confirmed' },
        { actor_id: 'peer2', source_event_id: src.id, delivery_id: `delivery:peer2:${'a'.repeat(24)}`, state: 'unconfirmed' },
      ]);
      const other = (await s.append(chat('user', ['peer1'], 'send', 'other'))).event;
      expect(s.deliveryConfirmations(other.id)).toEqual([]);
    }),
  );
}
