import type { OpRouter } from '@cccc/ipc-protocol';
import { registerActivityStreamOps, type ActivityStreamOpsDeps } from './activity-stream.js';
import { registerActorsOps, type ActorsOpsDeps } from './actors.js';
import { registerBlobOps, type BlobOpsDeps } from './blobs.js';
import { registerCapabilitiesOps, type CapabilitiesOpsDeps } from './capabilities.js';
import { registerContextOps, type ContextOpsDeps } from './context.js';
import { registerDeliveryOps, type DeliveryOpsDeps } from './delivery.js';
import { registerDebugOps, type DebugOpsDeps } from './debug.js';
import { registerDebugLogsOps, type DebugLogsOpsDeps } from './debug-logs.js';
import { registerObservabilityOps, type ObservabilityOpsDeps } from './observability.js';
import { registerPresentationOps, type PresentationOpsDeps } from './presentation.js';
import { registerAutomationOps, type AutomationOpsDeps } from './automation.js';
import { registerGroupsOps, type GroupsOpsDeps } from './groups.js';
import { registerHooksOps, type HooksOpsDeps } from './hooks.js';
import { registerInboxOps, type InboxOpsDeps } from './inbox.js';
import { registerLedgerOps, type LedgerOpsDeps } from './ledger.js';
import { registerLifecycleOps, type LifecycleOpsDeps } from './lifecycle.js';
import { registerMemoryOps, type MemoryOpsDeps } from './memory.js';
import { registerMessagingOps, type MessagingOpsDeps } from './messaging.js';
import { registerProfilesOps, type ProfilesOpsDeps } from './profiles.js';
import { registerRuntimeCatalogOps } from './runtime-catalog.js';
import { registerRuntimeOps, type RuntimeOpsDeps } from './runtime.js';
import { registerPromptsOps, type PromptsOpsDeps } from './prompts.js';
import { registerStreamOps, type StreamOpsDeps } from './streams.js';
import { registerTerminalOps, type TerminalOpsDeps } from './terminal.js';
import { registerVoiceOps, type VoiceOpsDeps } from './voice.js';
import { registerSpaceOps, type SpaceOpsDeps } from './space.js';
import { registerImOps, type ImOpsDeps } from './im.js';
import { registerGroupCopyOps, type GroupCopyOpsDeps } from './group-copy.js';
import { registerRemoteAccessOps, type RemoteAccessOpsDeps } from './remote-access.js';
import { registerHeadlessOps, type HeadlessOpsDeps } from './headless.js';

/** What the op modules need between them; each module takes only its own part. */
export type DaemonOpsDeps = GroupsOpsDeps &
  ActorsOpsDeps &
  ProfilesOpsDeps &
  PromptsOpsDeps &
  LifecycleOpsDeps &
  RuntimeOpsDeps &
  DeliveryOpsDeps &
  DebugOpsDeps &
  MessagingOpsDeps &
  InboxOpsDeps &
  LedgerOpsDeps &
  StreamOpsDeps &
  ContextOpsDeps &
  TerminalOpsDeps &
  HooksOpsDeps &
  ActivityStreamOpsDeps &
  BlobOpsDeps &
  DebugLogsOpsDeps &
  ObservabilityOpsDeps &
  PresentationOpsDeps &
  AutomationOpsDeps &
  CapabilitiesOpsDeps &
  MemoryOpsDeps &
  VoiceOpsDeps &
  SpaceOpsDeps &
  ImOpsDeps &
  GroupCopyOpsDeps &
  RemoteAccessOpsDeps &
  HeadlessOpsDeps;

/** Every op module of the daemon, one line each (ping/shutdown live in core.ts). */
export function registerDaemonOps(router: OpRouter, deps: DaemonOpsDeps): void {
  registerGroupsOps(router, deps);
  registerActorsOps(router, deps);
  registerHeadlessOps(router, deps);
  registerProfilesOps(router, deps);
  registerPromptsOps(router, deps);
  registerLifecycleOps(router, deps);
  registerRuntimeOps(router, deps);
  registerDeliveryOps(router, deps);
  registerDebugOps(router, deps);
  registerMessagingOps(router, deps);
  registerInboxOps(router, deps);
  registerLedgerOps(router, deps);
  registerStreamOps(router, deps);
  registerContextOps(router, deps);
  registerTerminalOps(router, deps);
  registerHooksOps(router, deps);
  registerActivityStreamOps(router, deps);
  registerBlobOps(router, deps);
  registerMemoryOps(router, deps);
  registerVoiceOps(router, deps);
  registerRuntimeCatalogOps(router);
  registerDebugLogsOps(router, deps);
  registerObservabilityOps(router, deps);
  registerPresentationOps(router, deps);
  registerAutomationOps(router, deps);
  registerCapabilitiesOps(router, deps);
  registerSpaceOps(router, deps);
  registerImOps(router, deps);
  registerGroupCopyOps(router, deps);
  registerRemoteAccessOps(router, deps);
}
