import { describe, it } from 'vitest';
import { appendCases } from './contract/append-cases.js';
import { deliveryCases } from './contract/delivery-cases.js';
import { roles, type Check, type WithStore } from './contract/helpers.js';
import { mailCases } from './contract/mail-cases.js';
import { readCases } from './contract/read-cases.js';
import { streamCases } from './contract/stream-cases.js';
import type { LedgerContractOptions } from './contract/types.js';

export { CONTRACT_CASES, type ContractCase, type ContractOpenOptions, type LedgerContractOptions } from './contract/types.js';

/**
 * The LedgerStore contract: every implementation (file store, in-memory store) must pass it.
 * Each case that does not apply is skipped with its stated reason.
 */
export function describeLedgerContract(name: string, options: LedgerContractOptions): void {
  const check: Check = (c, title, body) => {
    const reason = options.skip?.[c];
    if (reason) it.skip(`${c}: ${title} (skipped: ${reason})`, body);
    else it(`${c}: ${title}`, body);
  };
  const withStore: WithStore = async (opts, body) => {
    const store = await options.open({ groupId: 'g_contract0001', roleOf: roles, ...opts });
    try {
      await body(store);
    } finally {
      await store.close();
    }
  };
  describe(`LedgerStore contract: ${name}`, () => {
    appendCases(check, withStore);
    mailCases(check, withStore);
    readCases(check, withStore);
    deliveryCases(check, withStore);
    streamCases(check, withStore);
  });
}
