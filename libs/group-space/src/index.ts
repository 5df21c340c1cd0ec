// @cccc/group-space: provider-backed shared knowledge in two lanes (IPC §8.18).
export { GroupSpace, type GroupSpaceOptions } from './group-space.js';
export { SpaceJobQueue, JOB_STATES, type JobState, type SpaceJob, type NewJob, type QueueSummary } from './job-queue.js';
export { LocalSpaceProvider, LOCAL_PROVIDER } from './local/local-provider.js';
export { tokens, queryTerms, matchExpression, bestSentence } from './local/fts-terms.js';
export type { SpaceProvider, ProviderState, ProviderMode, RemoteSpace, SourceInput, SpaceSource, QueryAnswer, QueryReference, SpaceArtifact } from './provider.js';
export { BindingStore, unbound, type Bindings, type LaneBinding } from './bindings.js';
export { LANES, isLane, assertLaneAllowed, isLocalOnlyMemoryFile, isFinalizedDailyFile, dailyFileDate, type Lane } from './lanes.js';
export { backoffMs } from './backoff.js';
export { SpaceErrorCodes, spaceError, type SpaceErrorCode } from './errors.js';
export { LOCAL_FILE_POLICY, resolveSpaceFile } from './space-files.js';
export { finalizedDailyFiles } from './memory-sync.js';
export { NotebookLmControlPlane, NO_WIRE_CLIENT, assertUser, type HealthResult, type AuthView } from './notebooklm/control-plane.js';
export { NotebookLmCredentialStore, NOTEBOOKLM_AUTH_KEY, type CredentialView } from './notebooklm/credential-store.js';
export { validateAuthJson, MAX_AUTH_JSON_BYTES } from './notebooklm/auth-json.js';
