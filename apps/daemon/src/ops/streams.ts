import type { OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';

export function registerStreamOps(_router: OpRouter, _kernel: Kernel): void {}
