export { ImAuthority, type ImAuthorityOptions } from './authority.js';
export { ImAuthorityStore, IM_STATE_FILES, IM_STATE_LOCK, mintKey } from './store.js';
export { KEY_TTL_SECONDS, type ImAuthorityState, type ImTarget, type PendingView } from './state.js';
export { normalizeThreadId, threadKey } from './thread-id.js';
