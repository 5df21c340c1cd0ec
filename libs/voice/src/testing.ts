import { describe } from 'vitest';
import { leaseCases, type LeaseContractOptions } from './contract/lease-cases.js';

export type { LeaseContractOptions } from './contract/lease-cases.js';

/** The recording lease contract: every `RecordingLeaseStore` (file store, memory store) must pass it. */
export function describeRecordingLeaseContract(name: string, options: LeaseContractOptions): void {
  describe(`RecordingLeaseStore contract: ${name}`, () => leaseCases(options));
}

export { makeSyntheticAsrModel, SYNTHETIC_ASR_MODEL_TITLE, toneBursts } from './test-support/synthetic-asr-model.js';
