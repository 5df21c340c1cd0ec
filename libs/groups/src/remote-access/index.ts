// §8.17 remote access: stored configuration, the admin-token rule, the tailscale CLI driver.
export {
  RemoteAccessErrorCodes,
  PROVIDER_MODES,
  applyConfigure,
  readStored,
  webBinding,
  exposesRemotely,
  adminRuleSatisfied,
  normalizePublicUrl,
  validWebHost,
  type ConfigurePatch,
  type StoredRemoteAccess,
  type WebBinding,
} from './config.js';
export { tailscaleStartArgs, tailscaleStopArgs, tailscaleStatusArgs, findTailscale, runBounded, parseTailscaleStatus, TAILSCALE_DEADLINE_MS, type CommandOutcome } from './tailscale.js';
export { RemoteAccessService, accessTokenFacts, type RemoteAccessOptions, type RemoteAccessView } from './service.js';
