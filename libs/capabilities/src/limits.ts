// The tuning variables spec §8.3 names, read once from an environment.

export interface CapabilityLimits {
  readonly maxEnabledPerActor: number;
  readonly maxEnabledPerGroup: number;
  readonly maxInstallationsTotal: number;
  readonly maxDynamicToolsVisible: number;
  readonly catalogMaxRecords: number;
  readonly remoteFallback: boolean;
  readonly remoteFallbackLimit: number;
  readonly sourceMcpRegistryEnabled: boolean;
  /** Bound on every remote request (ours; the spec asks for no hang). */
  readonly remoteTimeoutMs: number;
  readonly mcpRegistryBase: string;
  readonly defaultSessionTtlSeconds: number;
}

function int(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key]?.trim();
  const n = raw ? Number(raw) : NaN;
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}

function flag(env: NodeJS.ProcessEnv, key: string, fallback: boolean): boolean {
  const raw = env[key]?.trim().toLowerCase();
  if (!raw) return fallback;
  return !['0', 'false', 'no', 'off'].includes(raw);
}

export function capabilityLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): CapabilityLimits {
  return {
    maxEnabledPerActor: int(env, 'CCCC_CAPABILITY_MAX_ENABLED_PER_ACTOR', 20, 0, 10_000),
    maxEnabledPerGroup: int(env, 'CCCC_CAPABILITY_MAX_ENABLED_PER_GROUP', 24, 0, 10_000),
    maxInstallationsTotal: int(env, 'CCCC_CAPABILITY_MAX_INSTALLATIONS_TOTAL', 128, 0, 100_000),
    maxDynamicToolsVisible: int(env, 'CCCC_CAPABILITY_MAX_DYNAMIC_TOOLS_VISIBLE', 32, 0, 1000),
    catalogMaxRecords: int(env, 'CCCC_CAPABILITY_CATALOG_MAX_RECORDS', 20_000, 1, 1_000_000),
    remoteFallback: flag(env, 'CCCC_CAPABILITY_SEARCH_REMOTE_FALLBACK', true),
    remoteFallbackLimit: int(env, 'CCCC_CAPABILITY_SEARCH_REMOTE_FALLBACK_LIMIT', 40, 1, 100),
    sourceMcpRegistryEnabled: flag(env, 'CCCC_CAPABILITY_SOURCE_MCP_REGISTRY_ENABLED', true),
    remoteTimeoutMs: int(env, 'CCCC_CAPABILITY_REMOTE_TIMEOUT_MS', 3000, 50, 30_000),
    mcpRegistryBase: env.CCCC_CAPABILITY_MCP_REGISTRY_BASE?.trim() || 'https://registry.modelcontextprotocol.io/v0/servers',
    defaultSessionTtlSeconds: int(env, 'CCCC_CAPABILITY_SESSION_TTL_SECONDS', 3600, 60, 7 * 86400),
  };
}
