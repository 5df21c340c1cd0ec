import type { z } from 'zod';
import type { OpArgsInput, OpCatalog, OpName } from './catalog.js';

/** Same shape as catalog.fixtures' OpExample (kept here so the two files do not import each other). */
interface OpExample<K extends OpName> {
  readonly args: OpArgsInput<K>;
  readonly required: readonly string[];
  readonly result: z.input<OpCatalog[K]['result']>;
}

// §8.16 IM ops and the IM configuration extension: one valid request and result each.

const G = 'g_30e7eb3af8cf';
type ImOp = 'im_bind_chat' | 'im_list_authorized' | 'im_list_pending' | 'im_reject_pending' | 'im_revoke_chat' | 'im_config_get' | 'im_config_set';
const config = { platform: 'telegram' as const, enabled: true, forward_public_notify: false, bot_token_present: true, app_token_present: false };

export const imExamples: { readonly [K in ImOp]: OpExample<K> } = {
  im_bind_chat: {
    args: { group_id: G, key: 'Xq3v_9aBcDe' },
    required: ['group_id'],
    result: { chat_id: '-1001234', thread_id: 7, platform: 'telegram' },
  },
  im_list_authorized: {
    args: { group_id: G },
    required: ['group_id'],
    result: { authorized: [{ chat_id: 'C1', thread_id: '1710000000.100', platform: 'slack', authorized_at: 1760000000.5, key_used: 'k', authorization_source: 'binding_key' }] },
  },
  im_list_pending: {
    args: { group_id: G },
    required: ['group_id'],
    result: { pending: [{ key: 'Xq3v_9aBcDe', chat_id: '42', thread_id: 0, platform: 'telegram', created_at: 1760000000, expires_at: 1760000600, expires_in_seconds: 598 }] },
  },
  im_reject_pending: { args: { group_id: G, key: 'Xq3v_9aBcDe' }, required: ['group_id'], result: { rejected: true } },
  im_revoke_chat: {
    args: { group_id: G, chat_id: 'C1', thread_id: '1710000000.100' },
    required: ['group_id'],
    result: { revoked: true, unsubscribed: true },
  },
  im_config_get: { args: { group_id: G }, required: ['group_id'], result: { group_id: G, im: config } },
  im_config_set: { args: { group_id: G, platform: 'telegram', bot_token: '123:abc', enabled: true }, required: ['group_id'], result: { group_id: G, im: config } },
};
