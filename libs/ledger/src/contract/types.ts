import type { LedgerStore } from '../store.js';
import type { AppendedListener, Clock, RoleOf } from '../types.js';

export interface ContractOpenOptions {
  groupId: string;
  clock?: Clock;
  roleOf?: RoleOf;
  onAppended?: AppendedListener;
}

export interface LedgerContractOptions {
  /** Open a fresh, empty store; the suite closes it. */
  open: (opts: ContractOpenOptions) => Promise<LedgerStore>;
  /** Case name → reason it does not apply to this implementation. */
  skip?: Partial<Record<ContractCase, string>>;
}

export const CONTRACT_CASES = [
  'envelope',
  'order',
  'appendManyAtomic',
  'tooLarge',
  'invalidData',
  'findById',
  'findByPrefix',
  'clientId',
  'clientIdWindow',
  'inbox',
  'inboxRecipients',
  'inboxGeneration',
  'history',
  'tail',
  'search',
  'undelivered',
  'obligations',
  'delivery',
  'strandedClaims',
  'deliveryConfirmation',
  'follow',
  'appendedOnce',
  'snapshot',
  'lookups',
] as const;
export type ContractCase = (typeof CONTRACT_CASES)[number];
