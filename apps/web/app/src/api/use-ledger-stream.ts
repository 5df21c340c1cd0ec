import { useEffect, useRef } from 'react';
import { subscribeLedger } from './group-ledger-hub';
import type { LedgerEvent } from './types';

/**
 * Follow `kinds` of a group's ledger (null group = not now) through the app's shared per-group
 * stream (group-ledger-hub). `since` starts after a known event (the newest one the caller
 * already loaded). The handler is read through a ref so a re-render does not resubscribe.
 */
export function useLedgerStream(groupId: string | null, kinds: readonly string[], onEvent: (event: LedgerEvent) => void, since?: string | null): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = kinds.join(',');
  useEffect(() => {
    if (!groupId) return;
    return subscribeLedger(groupId, key.split(','), (event) => handler.current(event), since ?? null);
  }, [groupId, key, since]);
}
