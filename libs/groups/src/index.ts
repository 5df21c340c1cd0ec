// Public surface of @cccc/groups: CCCC_HOME layout, registry, group.yaml, scopes, actors,
// secrets and profiles (IO shell), and the pure cores (permissions, recipients, ids, settings,
// principals and the outgoing-message rules).
export { GroupErrorCodes, groupError, type GroupErrorCode } from './errors.js';
export { utcNowIso } from './clock.js';
export { HomeLayout, resolveHome } from './home-layout.js';
export { GROUP_ID_PATTERN, SCOPE_KEY_PATTERN, newGroupId, groupIdForScope, scopeKeyFor, sha256Hex } from './ids.js';

export { RegistryDoc, RegistryEntry, ActiveDoc } from './schemas/registry.js';
export { GroupDoc, GroupState, ScopeRef, ScopeDoc, DefaultSendTo } from './schemas/group.js';
export { ActorDoc, SubmitMode, RunnerKind } from './schemas/actor.js';
export { ProfileDoc, SecretsDoc } from './schemas/profile.js';

export { readRegistry, updateRegistry } from './registry-store.js';
export { readActiveGroupId, writeActiveGroupId } from './active-group.js';
export { loadGroup, updateGroup, groupExists } from './group-store.js';
export {
  createGroup,
  updateGroupMeta,
  deleteGroup,
  listGroups,
  reconcileRegistry,
  setGroupState,
  setGroupRunning,
  showGroup,
  redactGroup,
  summarizeGroup,
  type GroupSummary,
  type ReconcileReport,
} from './groups.js';
export { attachScope, detachScope, useScope, activeScopeRoot, type AttachResult } from './scope-ops.js';
export { detectScope, resolveDirectory, type ScopeIdentity } from './scope.js';
export { normalizeGitRemote, findRepoRoot, readOriginUrl } from './git-remote.js';
export { updateGroupSettings, groupSettings, applySettingsPatch, normalizeSettingsPatch, type GroupSettings } from './group-settings.js';

export { actorIdProblem, assertValidActorId, isValidActorId, nextAutoActorId, MAX_ACTOR_ID_LENGTH } from './actor-id.js';
export { splitCommandLine, normalizeCommand } from './command-line.js';
export {
  buildActor,
  applyActorPatch,
  effectiveRole,
  foremanOf,
  findActor,
  isVisibleActor,
  actorViews,
  PROFILE_OWNED_FIELDS,
  type ActorRole,
  type ActorView,
  type NewActorInput,
} from './actors.js';
export { listActors, addActor, updateActor, removeActor, setActorEnabled, type AddActorInput, type AddActorOptions } from './actor-store.js';
export { currentGenerations, isInGeneration, type ActorGeneration, type ActorLifecycleEvent } from './generations.js';

export { assertValidEnvKey, assertValidEnvMap, ENV_KEY_PATTERN } from './env-keys.js';
export { maskSecret, applySecretUpdate, readSecretMap, updateSecretFile, SECRET_FILE_MODE, SECRET_DIR_MODE, type SecretMapUpdate } from './secrets-store.js';
export { actorPrivateEnvKeys, updateActorPrivateEnv, readActorPrivateEnvForLaunch, type PrivateEnvKeys } from './private-env.js';
export {
  listProfiles,
  getProfile,
  upsertProfile,
  deleteProfile,
  profileSecretKeys,
  updateProfileSecrets,
  copyProfileSecretsFromActor,
  copyProfileSecretsFromProfile,
  convertActorToCustom,
  profileUsage,
  type ProfileUsage,
} from './profiles.js';
export { loadProfile, type ProfileInput } from './profile-store.js';

export {
  checkPermission,
  decidePermission,
  isUserPrincipal,
  isStrictForemanClone,
  PermissionActions,
  type PermissionAction,
  type PermissionContext,
  type PermissionDecision,
} from './permissions.js';
export {
  resolveRecipients,
  normalizeRecipientToken,
  normalizeRecipientTokens,
  splitRecipientTokens,
  defaultRecipients,
  toMatchesActor,
  isRecipientOf,
  SELECTORS,
  type MessageMode,
  type RecipientActor,
  type ResolveInput,
  type ResolvedRecipients,
} from './recipients.js';
export { principalOf, isNonActorPrincipal, isKnownSender, assertKnownSender, foreignPrincipal } from './principals.js';
export { normalizeInsight, assertPeerInsight, MAX_INSIGHT_CHARS } from './insight.js';
export {
  validateOutgoing,
  validateMessage,
  validateReply,
  validateCrossGroup,
  assertReplyMode,
  assertOtherGroup,
  messageScopeKey,
  type OutgoingInput,
  type Outgoing,
  type MessageRequest,
  type CrossGroupInput,
  type CrossGroupOutgoing,
} from './outgoing.js';
export {
  chatMessageData,
  messageData,
  replyData,
  crossGroupSourceData,
  crossGroupForwardData,
  notifyData,
  sentMessage,
  sentReply,
  quoteOf,
  type ChatMessageFields,
  type MessageContent,
  type NotifyRequest,
  type SentMessage,
} from './message-data.js';
export { resolveScopedFile, readScopedFiles, type ScopedFile } from './path-safety.js';
export { authorizeGroupAction } from './authorize.js';
export { rootBodyViolation, assertRootBodyPolicy, ROOT_BODY_MAX_CHARS, ROOT_BODY_MAX_LINES, type RootBodyRule, type RootBodyViolation } from './root-body-policy.js';
export {
  getPreamble,
  setPreamble,
  resetPreamble,
  getHelp,
  composeHelp,
  getActorNotes,
  setActorNote,
  clearActorNote,
  withActorNote,
  MAX_PREAMBLE_BYTES,
  type PreambleView,
} from './prompts.js';
export { BUILTIN_PREAMBLE, BUILTIN_HELP } from './builtin-prompts.js';

// §8.2 global settings (CCCC_HOME/settings.yaml): observability and Web branding.
export { DEFAULT_OBSERVABILITY, LOG_LEVEL_NAMES, mergeObservability, applyObservabilityPatch, type Observability } from './global-settings/observability.js';
export { DEFAULT_PRODUCT_NAME, BRANDING_ASSET_PREFIX, checkBrandingAssetPath, mergeBranding, applyBrandingPatch, type Branding } from './global-settings/branding.js';
export { readObservability, updateObservability, readBranding, updateBranding } from './global-settings/settings-file.js';

// §8.13 presentation board: pure card/slot rules and the snapshot file.
export {
  emptySnapshot,
  targetSlot,
  inferCardType,
  planCardSource,
  checkRemoteUrl,
  normalizeTable,
  buildCard,
  withPublished,
  withCleared,
  mimeOf,
  type CardSourcePlan,
  type ResolvedCardSource,
} from './presentation/cards.js';
export { presentationPath, normalizeSnapshot, readPresentation, readPresentationFile, writePresentation, restorePresentationFile } from './presentation/store.js';

export * from './group-copy/index.js';
export * from './remote-access/index.js';
export { ACP_MODE_RUNTIMES, assertRuntimeMode, patchedRuntimeMode, supportsRuntimeMode, type RuntimeModeValue } from './runtime-mode.js';
