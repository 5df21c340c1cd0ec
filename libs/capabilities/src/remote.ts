import { z } from 'zod';
import type { CapabilityLimits } from './limits.js';
import type { CapabilityRecord } from './records.js';
import { clawhubSource, clawskillsSource, openclawSource, skillsmpSource } from './remote-skills.js';
import type { RemoteSearchResult, RemoteSource } from './remote-source.js';

// On-demand remote augmentation of search. Each source answers within limits.remoteTimeoutMs or
// is reported as failed; a failure never fails the search.

export type { RemoteSearchResult, RemoteSource } from './remote-source.js';

const RegistryServer = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  version: z.string().optional(),
  repository: z.looseObject({ url: z.string().optional() }).optional(),
  packages: z.array(z.looseObject({ registryType: z.string().optional(), registry_name: z.string().optional(), identifier: z.string().optional(), name: z.string().optional() })).optional(),
  remotes: z.array(z.looseObject({ type: z.string().optional(), url: z.string().optional() })).optional(),
});
const RegistryPage = z.looseObject({
  servers: z.array(z.union([z.looseObject({ server: RegistryServer }), RegistryServer])),
});

/** The official MCP registry (`GET <base>?search=&limit=`), mapped to indexed mcp_toolpack records. */
export function mcpRegistrySource(base: string): RemoteSource {
  return {
    source_id: 'mcp_registry_official',
    kind: 'mcp_toolpack',
    async search(query, limit, signal) {
      const url = new URL(base);
      url.searchParams.set('search', query);
      url.searchParams.set('limit', String(limit));
      const response = await fetch(url, { signal, headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`http_${response.status}`);
      const page = RegistryPage.parse(await response.json());
      return page.servers.slice(0, limit).map((entry) => registryRecord(RegistryServer.parse('server' in entry ? entry.server : entry)));
    },
  };
}

function registryRecord(server: z.infer<typeof RegistryServer>): CapabilityRecord {
  const npm = server.packages?.find((p) => (p.registryType ?? p.registry_name) === 'npm');
  const remote = server.remotes?.find((r) => r.url);
  const install = npm
    ? { install_mode: 'package' as const, install_spec: { registry: 'npm', package: npm.identifier ?? npm.name ?? '' } }
    : remote
      ? { install_mode: 'remote_only' as const, install_spec: { url: remote.url!, transport: remote.type ?? 'streamable-http' } }
      : {};
  return {
    capability_id: `mcp:${server.name}`,
    kind: 'mcp_toolpack',
    name: server.name,
    description_short: (server.description ?? '').slice(0, 500),
    source_id: 'mcp_registry_official',
    source_tier: 'registry',
    ...(server.repository?.url ? { source_uri: server.repository.url } : {}),
    ...(server.version ? { source_record_version: server.version } : {}),
    trust_tier: 'unverified',
    qualification_status: 'qualified',
    tags: [],
    ...install,
  };
}

/** The enabled remote sources, MCP registry first, then the skill sources in the spec's order. */
export function remoteSourcesFromLimits(limits: CapabilityLimits): RemoteSource[] {
  const skills = limits.remoteSkills;
  const cap = (n: number) => Math.min(n, skills.skillLimit);
  return [
    ...(limits.sourceMcpRegistryEnabled ? [mcpRegistrySource(limits.mcpRegistryBase)] : []),
    ...(skills.skillsmp.enabled
      ? [skillsmpSource({ ...skills.skillsmp, limit: cap(skills.skillsmp.limit), apiTimeoutMs: Math.max(50, Math.floor(limits.remoteTimeoutMs / 2)) })]
      : []),
    ...(skills.clawhub.enabled ? [clawhubSource({ ...skills.clawhub, limit: cap(skills.clawhub.limit) })] : []),
    ...(skills.openclaw.enabled ? [openclawSource({ ...skills.openclaw, limit: cap(skills.openclaw.limit) })] : []),
    ...(skills.clawskills.enabled ? [clawskillsSource({ ...skills.clawskills, limit: cap(skills.clawskills.limit) })] : []),
  ];
}

/** Ask every source at once, each bounded by `timeoutMs` and by its own `limit`. */
export async function searchRemote(sources: readonly RemoteSource[], query: string, limit: number, timeoutMs: number): Promise<RemoteSearchResult[]> {
  return Promise.all(
    sources.map(async (source): Promise<RemoteSearchResult> => {
      const signal = AbortSignal.timeout(timeoutMs);
      const n = Math.max(1, Math.min(limit, source.limit ?? limit));
      try {
        const records = await Promise.race([
          source.search(query, n, signal).then((rows) => rows.slice(0, n)),
          new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
        ]);
        return { source_id: source.source_id, records };
      } catch (error) {
        return { source_id: source.source_id, records: [], error: describe(error) };
      }
    }),
  );
}

function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError') return 'timeout';
  if (e?.cause?.code) return String(e.cause.code).toLowerCase();
  if (e?.name === 'ZodError') return 'invalid_response';
  return (e?.message ?? String(error)).split('\n')[0]!.slice(0, 200);
}
