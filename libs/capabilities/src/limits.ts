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
  /** The remote skill sources (spec §8.3 operational note 6): gates, per-source limits, endpoints. */
  readonly remoteSkills: RemoteSkillLimits;
}

export interface RemoteSkillLimits {
  readonly skillLimit: number;
  readonly skillsmp: { readonly enabled: boolean; readonly limit: number; readonly apiBase: string; readonly proxyBase: string; readonly apiKey?: Secret };
  readonly clawhub: { readonly enabled: boolean; readonly limit: number; readonly apiBase: string };
  /** `treeUrl`/`rawBase` are ours (the spec names no variable for the GitHub corpus). */
  readonly openclaw: { readonly enabled: boolean; readonly limit: number; readonly treeUrl: string; readonly rawBase: string };
  readonly clawskills: { readonly enabled: boolean; readonly limit: number; readonly dataUrl: string };
}

/** A credential that never serializes or prints (JSON, util.inspect, template strings). */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return '[redacted]';
  }
  toString(): string {
    return '[redacted]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Secret([redacted])';
  }
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
    remoteSkills: remoteSkillLimitsFromEnv(env),
  };
}

function remoteSkillLimitsFromEnv(env: NodeJS.ProcessEnv): RemoteSkillLimits {
  const fallback = int(env, 'CCCC_CAPABILITY_SEARCH_REMOTE_FALLBACK_LIMIT', 40, 1, 100);
  const limit = (key: string) => int(env, `CCCC_CAPABILITY_SEARCH_REMOTE_${key}_LIMIT`, fallback, 1, 100);
  const str = (key: string, fallbackValue: string) => env[key]?.trim() || fallbackValue;
  const apiKey = env.CCCC_CAPABILITY_SKILLSMP_API_KEY?.trim();
  return {
    skillLimit: limit('SKILL'),
    skillsmp: {
      enabled: flag(env, 'CCCC_CAPABILITY_SOURCE_SKILLSMP_REMOTE_ENABLED', true),
      limit: limit('SKILLSMP'),
      apiBase: str('CCCC_CAPABILITY_SKILLSMP_API_BASE', 'https://skillsmp.com/api/v1/skills/search'),
      proxyBase: str('CCCC_CAPABILITY_SKILLSMP_PROXY_BASE', 'https://r.jina.ai/http://skillsmp.com/search'),
      ...(apiKey ? { apiKey: new Secret(apiKey) } : {}),
    },
    clawhub: {
      enabled: flag(env, 'CCCC_CAPABILITY_SOURCE_CLAWHUB_REMOTE_ENABLED', true),
      limit: limit('CLAWHUB'),
      apiBase: str('CCCC_CAPABILITY_CLAWHUB_API_BASE', 'https://clawhub.ai/api/v1/skills'),
    },
    openclaw: {
      enabled: flag(env, 'CCCC_CAPABILITY_SOURCE_OPENCLAW_SKILLS_REMOTE_ENABLED', true),
      limit: limit('OPENCLAW'),
      treeUrl: str('CCCC_CAPABILITY_OPENCLAW_TREE_URL', 'https://api.github.com/repos/openclaw/skills/git/trees/main?recursive=1'),
      rawBase: str('CCCC_CAPABILITY_OPENCLAW_RAW_BASE', 'https://raw.githubusercontent.com/openclaw/skills/main'),
    },
    clawskills: {
      enabled: flag(env, 'CCCC_CAPABILITY_SOURCE_CLAWSKILLS_REMOTE_ENABLED', true),
      limit: limit('CLAWSKILLS'),
      dataUrl: str('CCCC_CAPABILITY_CLAWSKILLS_DATA_URL', 'https://clawskills.co/skills-data.js'),
    },
  };
}
