import { imError, ImErrorCodes } from '../errors.js';
import {
  addPending,
  bindKey,
  deliveryTargets,
  isAuthorized,
  listPending,
  purgeExpired,
  rejectKey,
  revokeChat,
  type ImTarget,
  type PendingView,
} from './state.js';
import { ImAuthorityStore, mintKey } from './store.js';
import { normalizeThreadId } from './thread-id.js';

export interface ImAuthorityOptions {
  /** Seconds since the epoch; injectable so expiry is testable without waiting ten minutes. */
  readonly now?: () => number;
  readonly newKey?: () => string;
}

/**
 * One group's IM authority: what the five im_* ops and the bridge ask. Each call is one locked
 * transaction over the three state files (see {@link ImAuthorityStore}).
 */
export class ImAuthority {
  readonly store: ImAuthorityStore;
  private readonly now: () => number;
  private readonly newKey: () => string;

  constructor(stateDir: string, options: ImAuthorityOptions = {}) {
    this.store = new ImAuthorityStore(stateDir);
    this.now = options.now ?? (() => Date.now() / 1000);
    this.newKey = options.newKey ?? mintKey;
  }

  /** A one-time key for an unknown chat (its still-live earlier key when it asks again). */
  requestKey(target: ImTarget): Promise<string> {
    return this.store.transaction((s) => addPending(s, target, this.newKey(), this.now()));
  }

  /** im_bind_chat: authorizes and subscribes the key's chat; `invalid_key` when absent or expired. */
  bind(key: string): Promise<ImTarget> {
    const k = key.trim();
    if (k === '') throw imError(ImErrorCodes.missingKey, 'missing key');
    return this.store.transaction((s) => {
      const target = bindKey(s, k, this.now());
      if (!target) throw imError(ImErrorCodes.invalidKey, 'key not found or expired');
      return target;
    });
  }

  /** im_reject_pending: idempotent, false when the key is already absent or expired. */
  reject(key: string): Promise<boolean> {
    const k = key.trim();
    if (k === '') throw imError(ImErrorCodes.missingKey, 'missing key');
    return this.store.transaction((s) => rejectKey(s, k, this.now()));
  }

  /** im_revoke_chat: removes the authorization and the subscription together. */
  revoke(chatId: string, threadId: unknown): Promise<{ revoked: boolean; unsubscribed: boolean }> {
    const cid = chatId.trim();
    if (cid === '') throw imError(ImErrorCodes.missingChatId, 'missing chat_id');
    return this.store.transaction((s) => revokeChat(s, cid, threadId));
  }

  /** im_list_pending: live keys only; expired ones are purged on the way. */
  listPending(): Promise<PendingView[]> {
    return this.store.transaction((s) => {
      const now = this.now();
      purgeExpired(s, now);
      return listPending(s, now);
    });
  }

  listAuthorized(): Promise<Array<Record<string, unknown>>> {
    return this.store.transaction((s) =>
      Object.values(s.authorized).map((e) => ({ ...e, thread_id: normalizeThreadId(e.thread_id) })),
    );
  }

  isAuthorized(target: ImTarget): Promise<boolean> {
    return this.store.transaction((s) => isAuthorized(s, target));
  }

  /** Current outbound targets, read fresh under the lock. */
  targets(): Promise<Array<ImTarget & { readonly verbose: boolean }>> {
    return this.store.transaction((s) => deliveryTargets(s));
  }
}
