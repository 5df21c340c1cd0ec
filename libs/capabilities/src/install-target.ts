import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { capabilityError } from './errors.js';
import type { CapabilityRecord } from './records.js';
import type { CapabilitySnapshot } from './snapshot.js';

// capability_install_target: resolve a target to catalog ids, reading SKILL.md records from a
// local path, a direct URL or a GitHub repository (root SKILL.md and skills/*/SKILL.md, ≤ 64).

export interface ResolvedTarget {
  readonly kind: 'capability_id' | 'local_path' | 'url' | 'github';
  /** Records to add to the catalog first (empty for an existing id). */
  readonly records: CapabilityRecord[];
  readonly ids: string[];
}

const MAX_RECORDS = 64;
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'skill';

/** A SKILL.md document: YAML front matter (name, description) and the capsule body. */
export function parseSkillMd(text: string, fallbackName: string): { name: string; description: string; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  let front: Record<string, unknown> = {};
  if (m) {
    try {
      const doc: unknown = parse(m[1]!);
      if (doc && typeof doc === 'object') front = doc as Record<string, unknown>;
    } catch {
      front = {};
    }
  }
  const body = (m ? m[2]! : text).trim();
  const name = typeof front.name === 'string' && front.name.trim() ? front.name.trim() : fallbackName;
  const description = typeof front.description === 'string' ? front.description.trim() : '';
  return { name, description, body };
}

function skillRecord(sourceId: string, idPrefix: string, text: string, fallbackName: string, sourceUri: string, now: number): CapabilityRecord {
  const skill = parseSkillMd(text, fallbackName);
  if (!skill.body) throw capabilityError('install_target_invalid', `SKILL.md at ${sourceUri} has no body`, { target: sourceUri });
  return {
    capability_id: `skill:${idPrefix}:${slug(skill.name)}`,
    kind: 'skill',
    name: skill.name,
    description_short: skill.description.slice(0, 500),
    source_id: sourceId,
    source_tier: 'imported',
    source_uri: sourceUri,
    trust_tier: 'unverified',
    qualification_status: 'qualified',
    tags: [],
    capsule_text: skill.body,
    requires_capabilities: [],
    synced_at: new Date(now).toISOString(),
  };
}

function localSkillFiles(path: string): string[] {
  if (!existsSync(path)) throw capabilityError('install_target_invalid', `no such path: ${path}`, { target: path });
  if (statSync(path).isFile()) {
    // Only SKILL.md files: the daemon does not read arbitrary files into the catalog.
    if (basename(path) !== 'SKILL.md') throw capabilityError('install_target_invalid', `a file target must be a SKILL.md: ${path}`, { target: path });
    return [path];
  }
  const out: string[] = [];
  if (existsSync(join(path, 'SKILL.md'))) out.push(join(path, 'SKILL.md'));
  const skills = join(path, 'skills');
  if (existsSync(skills) && statSync(skills).isDirectory()) {
    for (const name of readdirSync(skills).sort()) {
      const file = join(skills, name, 'SKILL.md');
      if (existsSync(file)) out.push(file);
    }
  }
  if (out.length === 0) throw capabilityError('install_target_invalid', `no SKILL.md under ${path}`, { target: path });
  return out.slice(0, MAX_RECORDS);
}

async function fetchText(url: string, timeoutMs: number): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`http_${response.status}`);
    return await response.text();
  } catch (error) {
    const e = error as { name?: string; message?: string; cause?: { code?: string } };
    const why = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message ?? 'fetch_failed');
    throw capabilityError('install_target_invalid', `could not fetch ${url}: ${why}`, { target: url, reason: String(why).toLowerCase() });
  }
}

const GITHUB = /^(?:github:|https?:\/\/github\.com\/)([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/;

export async function resolveInstallTarget(target: string, snap: CapabilitySnapshot, now: number, timeoutMs: number): Promise<ResolvedTarget> {
  const t = target.trim();
  if (/^(pack|skill|mcp):/.test(t)) {
    if (!snap.catalog.has(t)) throw capabilityError('capability_not_found', `unknown capability: ${t}`, { capability_id: t });
    return { kind: 'capability_id', records: [], ids: [t] };
  }
  const gh = GITHUB.exec(t);
  if (gh) {
    const [, owner, repo] = gh;
    const raw = `https://raw.githubusercontent.com/${owner}/${repo}/HEAD/SKILL.md`;
    const record = skillRecord('github_import', `github:${slug(owner!)}`, await fetchText(raw, timeoutMs), repo!, `https://github.com/${owner}/${repo}`, now);
    return { kind: 'github', records: [record], ids: [record.capability_id] };
  }
  if (/^https?:\/\//.test(t)) {
    const record = skillRecord('url_import', 'url', await fetchText(t, timeoutMs), basename(new URL(t).pathname, '.md'), t, now);
    return { kind: 'url', records: [record], ids: [record.capability_id] };
  }
  if (isAbsolute(t)) {
    const records = localSkillFiles(t).map((file) => skillRecord('local_import', 'local', readFileSync(file, 'utf8'), basename(join(file, '..')), file, now));
    const unique = [...new Map(records.map((r) => [r.capability_id, r])).values()];
    return { kind: 'local_path', records: unique, ids: unique.map((r) => r.capability_id) };
  }
  throw capabilityError('install_target_invalid', 'target is not a capability id, an absolute path, an http(s) URL or a GitHub repository', { target: t });
}
