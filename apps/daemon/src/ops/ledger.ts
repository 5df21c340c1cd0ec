import type { OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';

export function registerLedgerOps(_router: OpRouter, _kernel: Kernel): void {}
