import { describe } from 'vitest';
import { providerCases, type ProviderContractOptions } from './contract/provider-cases.js';

export type { ProviderContractOptions } from './contract/provider-cases.js';

/** The Group Space provider contract: every `SpaceProvider` (the local provider, a future NotebookLM adapter) must pass it. */
export function describeSpaceProviderContract(name: string, options: ProviderContractOptions): void {
  describe(`SpaceProvider contract: ${name}`, () => providerCases(options));
}
