import type { OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';
import { registerActivityStreamOps } from './activity-stream.js';
import { registerActorsOps } from './actors.js';
import { registerBlobOps } from './blobs.js';
import { registerContextOps } from './context.js';
import { registerDeliveryOps } from './delivery.js';
import { registerDebugOps } from './debug.js';
import { registerGroupsOps } from './groups.js';
import { registerHooksOps } from './hooks.js';
import { registerInboxOps } from './inbox.js';
import { registerLedgerOps } from './ledger.js';
import { registerLifecycleOps } from './lifecycle.js';
import { registerMessagingOps } from './messaging.js';
import { registerProfilesOps } from './profiles.js';
import { registerRuntimeCatalogOps } from './runtime-catalog.js';
import { registerRuntimeOps } from './runtime.js';
import { registerPromptsOps } from './prompts.js';
import { registerStreamOps } from './streams.js';
import { registerTerminalOps } from './terminal.js';

/** Every op module of the kernel, one line each (ping/shutdown live in core.ts). */
export function registerKernelOps(router: OpRouter, kernel: Kernel): void {
  registerGroupsOps(router, kernel);
  registerActorsOps(router, kernel);
  registerProfilesOps(router, kernel);
  registerPromptsOps(router, kernel);
  registerLifecycleOps(router, kernel);
  registerRuntimeOps(router, kernel);
  registerDeliveryOps(router, kernel);
  registerDebugOps(router, kernel);
  registerMessagingOps(router, kernel);
  registerInboxOps(router, kernel);
  registerLedgerOps(router, kernel);
  registerStreamOps(router, kernel);
  registerContextOps(router, kernel);
  registerTerminalOps(router, kernel);
  registerHooksOps(router, kernel);
  registerActivityStreamOps(router, kernel);
  registerBlobOps(router, kernel);
  registerRuntimeCatalogOps(router);
}
