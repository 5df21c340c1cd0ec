import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseSkillMd } from './install-target.js';
import type { Secret } from './limits.js';
import type { CapabilityRecord } from './records.js';
import type { RemoteSource } from './remote-source.js';

// The on-demand remote skill sources of spec §8.3 (operational notes 3 and 6): SkillsMP, ClawHub,
// the OpenClaw GitHub corpus and the clawskills.co index. Parsers are pure; each source is a thin
// fetch shell bounded by the caller's AbortSignal (searchRemote gives every source its time-out).
// A source throws a short reason code on failure; it never puts a credential in a record or error.

const USER_AGENT = 'cccc-ts-capability-search/1';

export const SKILL_SOURCE_IDS = ['skillsmp_remote', 'clawhub_remote', 'openclaw_skills_remote', 'clawskills_remote'] as const;

// ---- shared pure helpers -------------------------------------------------------------------

export function skillToken(raw: unknown): string {
  return String(raw ?? '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Words of three or more letters/digits; a hit must contain every one (remote lists are not ranked by us). */
export function queryTokens(query: string): string[] {
  return query.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [];
}

function matchesTokens(tokens: readonly string[], text: string): boolean {
  const hay = text.toLowerCase();
  return tokens.every((t) => hay.includes(t));
}

interface SkillHit {
  readonly source_id: (typeof SKILL_SOURCE_IDS)[number];
  readonly idPrefix: string;
  readonly slug: string;
  /** Stable identity of the remote record; its hash disambiguates equal slugs. */
  readonly recordKey: string;
  readonly name: string;
  readonly description: string;
  readonly uri: string;
  readonly tags?: readonly string[];
  readonly version?: string;
  readonly license?: string;
  readonly capsule?: string;
  readonly requires?: readonly string[];
}

function skillRecord(hit: SkillHit): CapabilityRecord {
  const hash = createHash('sha1').update(hit.recordKey).digest('hex').slice(0, 8);
  const description = hit.description.trim().slice(0, 600);
  return {
    capability_id: `skill:${hit.idPrefix}:${hit.slug}-${hash}`,
    kind: 'skill',
    name: hit.name,
    description_short: description,
    source_id: hit.source_id,
    source_tier: 'remote',
    source_uri: hit.uri,
    source_record_id: hit.recordKey,
    ...(hit.version ? { source_record_version: hit.version } : {}),
    trust_tier: 'unverified',
    ...(hit.license ? { license: hit.license } : {}),
    qualification_status: 'qualified',
    tags: ['skill', 'external', hit.idPrefix, 'remote_search', ...(hit.tags ?? [])],
    capsule_text: (hit.capsule || `Skill: ${hit.name}\nSummary: ${description}\nSource: ${hit.uri}`).slice(0, 2400),
    ...(hit.requires && hit.requires.length > 0 ? { requires_capabilities: hit.requires.slice(0, 32) } : {}),
  };
}

function withParams(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

async function getText(url: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, { signal, headers: { 'user-agent': USER_AGENT, ...headers } });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new HttpError(response.status);
  }
  return response.text();
}

async function getJson(url: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<unknown> {
  const text = await getText(url, signal, { accept: 'application/json', ...headers });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Never echo the body (JSON.parse messages quote it).
    throw new Error('invalid_json');
  }
}

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`http_${status}`);
  }
}

// ---- SkillsMP --------------------------------------------------------------------------------

const SkillsmpItem = z.looseObject({
  id: z.string().optional(),
  slug: z.string().optional(),
  name: z.string().optional(),
  displayName: z.string().optional(),
  description: z.string().nullish(),
  summary: z.string().nullish(),
  author: z.string().nullish(),
  skillUrl: z.string().nullish(),
  githubUrl: z.string().nullish(),
  version: z.string().nullish(),
});
/** `GET <api>?q=&page=&limit=&sortBy=` answers `{ success, data: { skills: [...], pagination } }`. */
const SkillsmpApiPage = z.looseObject({
  success: z.boolean().optional(),
  data: z.union([z.looseObject({ skills: z.array(z.unknown()) }), z.array(z.unknown())]).optional(),
  skills: z.array(z.unknown()).optional(),
  items: z.array(z.unknown()).optional(),
});

const SKILLSMP_GENERIC = new Set(['', 'md', 'markdown', 'skill', 'skills', 'skill-md', 'skills-md']);

/** `https://skillsmp.com/skills/<slug>` whatever the scheme or trailing punctuation; other URIs as given. */
export function skillsmpUri(raw: string): string {
  const text = raw.trim().replace(/[).,]+$/, '');
  try {
    const url = new URL(text);
    const parts = url.pathname.split('/').filter(Boolean);
    if (['skillsmp.com', 'www.skillsmp.com'].includes(url.hostname.toLowerCase()) && parts[0] === 'skills' && parts[1]) {
      const slug = skillToken(parts[1]);
      if (slug) return `https://skillsmp.com/skills/${slug}`;
    }
  } catch {
    return text;
  }
  return text;
}

/** A readable name from a SkillsMP slug like `owner-repo-skills-finishing-branch-skill-md`. */
export function skillsmpNameFromSlug(slug: string): string {
  let parts = skillToken(slug).split('-').filter(Boolean);
  while (parts.length > 0 && ['md', 'markdown', 'skill', 'skills'].includes(parts[parts.length - 1]!)) parts.pop();
  const lastSkills = parts.lastIndexOf('skills');
  if (lastSkills >= 0 && lastSkills + 1 < parts.length) parts = parts.slice(lastSkills + 1);
  if (parts.length > 1 && parts[0] === 'superpowers') parts = parts.slice(1);
  return parts.join('-') || 'skill';
}

function skillsmpHit(slugRaw: string, nameRaw: string, description: string, version?: string): CapabilityRecord | undefined {
  const slug = skillToken(slugRaw);
  if (!slug) return undefined;
  const uri = skillsmpUri(`https://skillsmp.com/skills/${slug}`);
  const token = skillToken(nameRaw);
  const name = token && !SKILLSMP_GENERIC.has(token) ? token : skillsmpNameFromSlug(slug);
  return skillRecord({
    source_id: 'skillsmp_remote',
    idPrefix: 'skillsmp',
    slug,
    recordKey: uri,
    name,
    description: description.trim() || `SkillsMP skill candidate (${name})`,
    uri,
    ...(version ? { version } : {}),
  });
}

export function parseSkillsmpApi(body: unknown, limit: number): CapabilityRecord[] {
  const page = SkillsmpApiPage.parse(body);
  const rows = Array.isArray(page.data) ? page.data : (page.data?.skills ?? page.skills ?? page.items ?? []);
  const out: CapabilityRecord[] = [];
  const seen = new Set<string>();
  for (const raw of rows) {
    const item = SkillsmpItem.safeParse(raw);
    if (!item.success) continue;
    const v = item.data;
    const fromUrl = v.skillUrl ? skillsmpUri(v.skillUrl).split('/skills/')[1] : undefined;
    const record = skillsmpHit(v.slug ?? fromUrl ?? v.id ?? '', v.name ?? v.displayName ?? '', v.description ?? v.summary ?? '', v.version ?? undefined);
    if (!record || seen.has(record.capability_id)) continue;
    seen.add(record.capability_id);
    out.push(record);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * The proxy (r.jina.ai) renders skillsmp.com/search as markdown: each hit is a link to
 * `https://skillsmp.com/skills/<slug>` whose text reads the file name, its stars, `from` and the quoted `owner/repo`, the description and a date.
 */
export function parseSkillsmpProxyMarkdown(markdown: string, limit: number): CapabilityRecord[] {
  const out: CapabilityRecord[] = [];
  const seen = new Set<string>();
  for (const m of markdown.matchAll(/https?:\/\/(?:www\.)?skillsmp\.com\/skills\/[^\s)\]]+/g)) {
    const uri = skillsmpUri(m[0]);
    if (!uri.startsWith('https://skillsmp.com/skills/') || seen.has(uri)) continue;
    seen.add(uri);
    const before = markdown.slice(Math.max(0, m.index - 1200), m.index);
    const line = before.split('\n').pop() ?? '';
    const exported = /###\s*export\s+([A-Za-z0-9._-]+)/.exec(before)?.[1];
    const linkText = /\[([^\]]*)\]\($/.exec(line)?.[1] ?? line;
    const fileName = /^\s*([A-Za-z0-9._-]+?)(?:\.md)?\s/.exec(linkText)?.[1];
    const from = /from\s+"[^"]+"\s*/.exec(linkText);
    const description = (from ? linkText.slice(from.index + from[0].length) : '')
      .replace(/\s+\d{4}-\d{2}-\d{2}\s*$/, '')
      .replace(/\s+/g, ' ')
      .trim();
    const record = skillsmpHit(uri.split('/skills/')[1]!, exported ?? fileName ?? '', description);
    if (record) out.push(record);
    if (out.length >= limit) break;
  }
  return out;
}

/** Why a proxy page without hits is not an answer (the proxy passes skillsmp.com's own pages through). */
function skillsmpProxyFailure(text: string): string {
  const lower = text.toLowerCase();
  if (lower.includes('missing_api_key') || lower.includes('authorization header is required')) return 'skillsmp_api_key_required';
  if (lower.includes('cloudflare') && lower.includes('blocked')) return 'skillsmp_blocked_by_cloudflare';
  if (lower.includes('loading skills')) return 'skillsmp_loading_only';
  return 'skillsmp_empty_or_unparsable';
}

export interface SkillsmpOptions {
  readonly apiBase: string;
  readonly proxyBase: string;
  readonly apiKey?: Secret;
  readonly limit: number;
  /** The API attempt's own bound, so the proxy fallback still has time (default 1500). */
  readonly apiTimeoutMs?: number;
}

/** SkillsMP: the direct API when a key is configured, then the proxy-rendered search page. */
export function skillsmpSource(options: SkillsmpOptions): RemoteSource {
  return {
    source_id: 'skillsmp_remote',
    kind: 'skill',
    limit: options.limit,
    async search(query, limit, signal) {
      const n = Math.max(1, Math.min(limit, options.limit, 100));
      let apiError = '';
      if (options.apiKey) {
        try {
          const url = withParams(options.apiBase, { q: query, page: '1', limit: String(n), sortBy: 'stars' });
          const bound = AbortSignal.any([signal, AbortSignal.timeout(options.apiTimeoutMs ?? 1500)]);
          const rows = parseSkillsmpApi(await getJson(url, bound, { authorization: `Bearer ${options.apiKey.reveal()}` }), n);
          if (rows.length > 0) return rows;
          apiError = 'skillsmp_api_empty';
        } catch (error) {
          if (signal.aborted) throw error;
          const status = error instanceof HttpError ? error.status : 0;
          apiError = status === 401 || status === 403 ? 'skillsmp_api_auth_failed' : status ? `skillsmp_api_http_${status}` : `skillsmp_api_failed:${reason(error)}`;
        }
      }
      const proxyUrl = options.proxyBase.includes('{query}') ? options.proxyBase.replace('{query}', encodeURIComponent(query)) : withParams(options.proxyBase, { q: query });
      const text = await getText(proxyUrl, signal, { accept: 'text/plain, text/markdown, */*' });
      const rows = parseSkillsmpProxyMarkdown(text, n);
      if (rows.length > 0) return rows;
      const why = skillsmpProxyFailure(text);
      throw new Error(apiError ? `${apiError};${why}` : why);
    },
  };
}

function reason(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timeout';
  if (e?.cause?.code) return String(e.cause.code).toLowerCase();
  if (e?.name === 'ZodError') return 'invalid_response';
  return String(e?.message ?? error).split('\n')[0]!.slice(0, 120);
}

// ---- ClawHub ---------------------------------------------------------------------------------

const ClawhubItem = z.looseObject({
  slug: z.string(),
  displayName: z.string().nullish(),
  summary: z.string().nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
  stats: z.looseObject({ stars: z.number().nullish() }).nullish(),
  latestVersion: z.looseObject({ version: z.string().nullish() }).nullish(),
});
/** `GET <api>?q=&limit=&cursor=` answers `{ items: [...], nextCursor }`. */
const ClawhubPage = z.looseObject({ items: z.array(z.unknown()), nextCursor: z.string().nullish() });

export function clawhubRecords(body: unknown, tokens: readonly string[]): { records: CapabilityRecord[]; nextCursor?: string } {
  const page = ClawhubPage.parse(body);
  const records: CapabilityRecord[] = [];
  for (const raw of page.items) {
    const item = ClawhubItem.safeParse(raw);
    if (!item.success) continue;
    const v = item.data;
    const slug = skillToken(v.slug);
    if (!slug) continue;
    const name = skillToken(v.displayName) || slug;
    const description = (v.summary ?? '').trim() || `ClawHub skill candidate (${name})`;
    if (!matchesTokens(tokens, [name, description, v.slug, v.displayName ?? ''].join(' '))) continue;
    const uri = `https://clawhub.ai/skills/${slug}`;
    const latestTag = v.tags?.latest;
    const version = v.latestVersion?.version ?? (typeof latestTag === 'string' ? latestTag : undefined);
    records.push(
      skillRecord({
        source_id: 'clawhub_remote',
        idPrefix: 'clawhub',
        slug,
        recordKey: uri,
        name,
        description,
        uri,
        ...(version ? { version } : {}),
        tags: (v.stats?.stars ?? 0) > 0 ? ['starred'] : [],
      }),
    );
  }
  return { records, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

export interface ClawhubOptions {
  readonly apiBase: string;
  readonly limit: number;
  readonly maxPages?: number;
  readonly pageSize?: number;
}

/** ClawHub's official list API, paged by cursor, filtered to the query's words. */
export function clawhubSource(options: ClawhubOptions): RemoteSource {
  return {
    source_id: 'clawhub_remote',
    kind: 'skill',
    limit: options.limit,
    async search(query, limit, signal) {
      const n = Math.max(1, Math.min(limit, options.limit, 100));
      const tokens = queryTokens(query);
      const out = new Map<string, CapabilityRecord>();
      let cursor: string | undefined;
      for (let page = 0; page < (options.maxPages ?? 5) && out.size < n; page++) {
        const params: Record<string, string> = { q: query, limit: String(options.pageSize ?? 50) };
        if (cursor) params.cursor = cursor;
        const result = clawhubRecords(await getJson(withParams(options.apiBase, params), signal), tokens);
        for (const r of result.records) if (out.size < n) out.set(r.capability_id, r);
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return [...out.values()];
    },
  };
}

// ---- OpenClaw GitHub corpus ------------------------------------------------------------------

/** The GitHub git-trees API: `{ sha, tree: [{ path, type: 'blob' | 'tree', ... }], truncated }`. */
const GitTree = z.looseObject({ tree: z.array(z.looseObject({ path: z.string(), type: z.string() })) });

export function openclawSkillPaths(body: unknown): string[] {
  const tree = GitTree.parse(body).tree;
  const paths = tree.filter((e) => e.type === 'blob' && e.path.toLowerCase().endsWith('skill.md')).map((e) => e.path.replace(/\\/g, '/'));
  return [...new Set(paths)].sort();
}

function frontmatterList(text: string): string[] {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m) return [];
  const line = /^(?:requires_capabilities|dependencies)\s*:\s*\[([^\]]*)\]/m.exec(m[1]!);
  return line ? line[1]!.split(',').map((s) => s.trim().replace(/^['"]|['"]$/g, '')).filter(Boolean) : [];
}

export function openclawRecord(path: string, skillMd?: string): CapabilityRecord {
  const parts = path.split('/').filter(Boolean);
  const hint = parts.length >= 2 ? parts[parts.length - 2]! : (parts[0] ?? 'skill');
  const uri = `https://github.com/openclaw/skills/blob/main/${parts.map(encodeURIComponent).join('/')}`;
  const parsed = skillMd ? parseSkillMd(skillMd, hint) : undefined;
  const slug = skillToken(hint) || 'skill';
  const name = skillToken(parsed?.name) || slug;
  const license = skillMd ? /^license\s*:\s*(.+)$/m.exec(/^---\r?\n([\s\S]*?)\r?\n---/.exec(skillMd)?.[1] ?? '')?.[1]?.trim() : undefined;
  const description = parsed?.description || `OpenClaw skill candidate (${name}) from ${path}`;
  return skillRecord({
    source_id: 'openclaw_skills_remote',
    idPrefix: 'openclaw',
    slug,
    recordKey: `openclaw/skills:${path}`,
    name,
    description,
    uri,
    ...(license ? { license } : {}),
    ...(parsed?.body ? { capsule: `Skill: ${name}\nSummary: ${description}\nSource: ${uri}\n\n${parsed.body}` } : {}),
    ...(skillMd ? { requires: frontmatterList(skillMd) } : {}),
  });
}

export interface OpenclawOptions {
  readonly treeUrl: string;
  readonly rawBase: string;
  readonly limit: number;
  /** How many matching SKILL.md files to read for name/description (default 10). */
  readonly frontmatterFetchMax?: number;
  readonly treeCacheMs?: number;
  readonly now?: () => number;
}

/** The openclaw/skills GitHub corpus: the repository tree (cached), paths matched, SKILL.md read. */
export function openclawSource(options: OpenclawOptions): RemoteSource {
  let cache: { at: number; paths: string[] } | undefined;
  const now = options.now ?? Date.now;
  const github = { accept: 'application/vnd.github+json' };
  return {
    source_id: 'openclaw_skills_remote',
    kind: 'skill',
    limit: options.limit,
    async search(query, limit, signal) {
      const n = Math.max(1, Math.min(limit, options.limit, 100));
      if (!cache || now() - cache.at > (options.treeCacheMs ?? 3_600_000)) {
        cache = { at: now(), paths: openclawSkillPaths(await getJson(options.treeUrl, signal, github)) };
      }
      const tokens = queryTokens(query);
      const picked = cache.paths.filter((p) => matchesTokens(tokens, p)).slice(0, n);
      const readMax = options.frontmatterFetchMax ?? 10;
      const base = options.rawBase.replace(/\/+$/, '');
      return Promise.all(
        picked.map(async (path, i) => {
          if (i >= readMax) return openclawRecord(path);
          const safe = path.split('/').filter((p) => p && p !== '.' && p !== '..').map(encodeURIComponent).join('/');
          const text = await getText(`${base}/${safe}`, signal).catch(() => undefined);
          return openclawRecord(path, text);
        }),
      );
    },
  };
}

// ---- clawskills.co ---------------------------------------------------------------------------

function jsString(literal: string): string {
  const inner = literal.slice(1, -1);
  const asJson = literal.startsWith("'") ? inner.replace(/\\'/g, "'").replace(/(^|[^\\])"/g, '$1\\"') : inner;
  try {
    return JSON.parse(`"${asJson}"`) as string;
  } catch {
    return inner;
  }
}

/**
 * `skills-data.js` is a script, `var SKILLS_DATA = [{ slug: '…', name: '…', desc: '…', category: '…',
 * author: '…' }, …];`: read as flat object literals with string values, never evaluated.
 */
export function parseClawskillsData(script: string, query: string, limit: number): CapabilityRecord[] {
  const start = script.indexOf('SKILLS_DATA');
  const open = start < 0 ? -1 : script.indexOf('[', start);
  const close = script.lastIndexOf(']');
  if (open < 0 || close <= open) throw new Error('clawskills_empty_or_unparsable');
  const tokens = queryTokens(query);
  const out = new Map<string, CapabilityRecord>();
  for (const obj of script.slice(open, close + 1).matchAll(/\{[^{}]*\}/g)) {
    const fields: Record<string, string> = {};
    for (const kv of obj[0].matchAll(/["']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*:\s*('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")/g)) {
      fields[kv[1]!.toLowerCase()] = jsString(kv[2]!);
    }
    const slug = skillToken(fields.slug);
    if (!slug) continue;
    const name = skillToken(fields.name) || slug;
    const desc = (fields.desc ?? fields.description ?? '').trim();
    const category = (fields.category ?? '').trim();
    const author = skillToken(fields.author);
    if (!matchesTokens(tokens, [slug, name, desc, category, author].join(' '))) continue;
    const uri = `https://clawskills.co/#skill-${slug}`;
    const record = skillRecord({
      source_id: 'clawskills_remote',
      idPrefix: 'clawskills',
      slug,
      recordKey: `clawskills:${slug}`,
      name,
      description: desc || `clawskills.co skill candidate (${name})`,
      uri,
      tags: [...(category ? [skillToken(category) || 'category'] : []), ...(author ? [`author:${author}`] : [])],
    });
    out.set(record.capability_id, record);
    if (out.size >= limit) break;
  }
  return [...out.values()];
}

export interface ClawskillsOptions {
  readonly dataUrl: string;
  readonly limit: number;
}

/** clawskills.co: one index script, searched locally. */
export function clawskillsSource(options: ClawskillsOptions): RemoteSource {
  return {
    source_id: 'clawskills_remote',
    kind: 'skill',
    limit: options.limit,
    async search(query, limit, signal) {
      const n = Math.max(1, Math.min(limit, options.limit, 100));
      return parseClawskillsData(await getText(options.dataUrl, signal, { accept: 'application/javascript, text/javascript, */*' }), query, n);
    },
  };
}
