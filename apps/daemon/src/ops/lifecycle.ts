import type { OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';

/** Not written yet: filled in by the group/actor ops work of issue 4. */
export function registerLifecycleOps(_router: OpRouter, _kernel: Kernel): void {}
