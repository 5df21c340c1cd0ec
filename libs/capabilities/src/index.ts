export { CapabilityErrorCodes, capabilityError, type CapabilityErrorCode } from './errors.js';
export { applyMergePatch, checkOverlay, mergePolicy, policyRevision, PolicyDoc, PackDef, CuratedRecord } from './allowlist.js';
export { defaultAllowlist, DEFAULT_ALLOWLIST_PATH } from './default-allowlist.js';
export { CapabilityRecord, policyRecords, BUILTIN_SOURCE, CURATED_SOURCE, REMOVABLE_SOURCES } from './records.js';
export { levelOf, recordPolicy, installModeAllowed, type RecordPolicy } from './policy.js';
export { CapabilityState, Installation, emptyState, pruneExpired, blockOf, revokeBindings, boundAnywhere } from './state.js';
export { CapabilityFiles, CapabilityPaths } from './store.js';
export { capabilityLimitsFromEnv, Secret, type CapabilityLimits, type RemoteSkillLimits } from './limits.js';
export { buildSnapshot, type CapabilitySnapshot } from './snapshot.js';
export { exposureOf, dynamicToolName, type Exposure, type DynamicToolView } from './exposure.js';
export { preflight, pathLookup, commandArgv, type PreflightResult, type PreflightCode } from './preflight.js';
export { mcpRegistrySource, searchRemote, remoteSourcesFromLimits, type RemoteSource, type RemoteSearchResult } from './remote.js';
export {
  skillsmpSource,
  clawhubSource,
  openclawSource,
  clawskillsSource,
  parseSkillsmpApi,
  parseSkillsmpProxyMarkdown,
  clawhubRecords,
  openclawSkillPaths,
  openclawRecord,
  parseClawskillsData,
  SKILL_SOURCE_IDS,
} from './remote-skills.js';
export { parseSkillMd } from './install-target.js';
export { principal, type GroupView } from './group-view.js';
export type { ExternalRuntime } from './external.js';
export { CapabilityService, type CapabilityServiceOptions, type CapabilityChange } from './service.js';
export { NodeExternalRuntime, type NodeExternalRuntimeOptions } from './node-runtime.js';
