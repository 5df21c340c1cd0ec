import type { EventOf } from '@cccc/ipc-protocol';
import type { LedgerStore } from '@cccc/ledger';

/**
 * The accepted message a `(by, client_id)` pair already identifies, looked up before validation
 * so a retried request replays its original result even if the group changed since (§8.6).
 */
export function findClientDuplicate(store: LedgerStore, by: string, clientId: string | undefined): EventOf<'chat.message'> | undefined {
  if (!clientId) return undefined;
  return store.findByClientId(by, clientId);
}
