import { z } from 'zod';
import { GROUP_ID_PATTERN } from '../ids.js';

// §8.20 Copy Groups: the package manifest and the rules of what a package may hold. Pure core:
// no IO here, so the exporter and the importer apply exactly the same rules.

export const GROUP_COPY_KIND = 'cccc.group_copy';
export const GROUP_COPY_VERSION = 1;
/** The manifest's entry name at the root of the zip. */
export const MANIFEST_ENTRY = 'manifest.json';
/** Every group file lives under this prefix in the zip (`group/group.yaml`, `group/ledger.jsonl`, …). */
export const GROUP_PREFIX = 'group/';
export const GROUP_YAML_ENTRY = `${GROUP_PREFIX}group.yaml`;

export const GroupCopyManifest = z.looseObject({
  kind: z.literal(GROUP_COPY_KIND),
  version: z.literal(GROUP_COPY_VERSION),
  source_group_id: z.string().regex(GROUP_ID_PATTERN),
  source_title: z.string().optional(),
  exported_at: z.string(),
  cccc_version: z.string().optional(),
  source_platform: z.string().optional(),
  export_mode: z.literal('group_state_only'),
  workspace_included: z.literal(false),
  contains_secrets: z.literal(false),
  content_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional(),
  content: z.record(z.string(), z.unknown()).optional(),
});
export type GroupCopyManifest = z.infer<typeof GroupCopyManifest>;

/**
 * Group-relative paths that never travel: live runtime state, locks, rebuildable caches and
 * indexes, persisted IM reply credentials and browser profiles. Applied on export AND on import (an
 * older or hand-made package that declares `contains_secrets: false` is still filtered).
 */
const EXCLUDED_EXACT = new Set([
  'state/im_weixin_context_tokens.json',
  'state/preamble_sent.json',
  'state/read_cursors.pending.json',
  'state/unread_index.json',
]);
const EXCLUDED_DIRS = ['state/runners/', 'state/runtime-activity/', 'state/headless/', 'state/terminal/', 'state/secrets/', 'state/browser/', 'state/browser_profiles/', 'state/cache/', 'daemon/'];
const EXCLUDED_NAME = /(^|\/)([^/]*\.lock|[^/]*\.tmp|\.DS_Store)$|(^|\/)(credentials?|auth|sessions?)\.json$/i;
/**
 * The ledger's SQLite indexes (ours, `ts-index.sqlite3`, and the reference's) with their WAL,
 * shared memory, journal and open/clean markers. They are rebuilt from the ledger, and SQLite
 * changes them in place while the daemon runs, so a copy could hash one version of a page and
 * pack the next (a package its own import then refuses).
 */
const LEDGER_INDEX = /^state\/ledger\/[^/]+\.sqlite3(-wal|-shm|-journal|\.clean|\.open-[^/]*)?$/;

/** True when a group-relative path (forward slashes) must not be exported or imported. */
export function isExcludedGroupPath(rel: string): boolean {
  if (EXCLUDED_EXACT.has(rel)) return true;
  if (EXCLUDED_DIRS.some((dir) => rel.startsWith(dir))) return true;
  if (rel.split('/').some((part) => /browser[-_]?profile/i.test(part))) return true;
  if (LEDGER_INDEX.test(rel)) return true;
  return EXCLUDED_NAME.test(rel);
}

/** Keys whose string values are credentials wherever they appear in group.yaml. */
const SECRET_KEY = /token|secret|password|passwd|api[_-]?key|credential|private[_-]?key|^auth$|authorization|cookie|session[_-]?key/i;

function scrubValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubValue);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (SECRET_KEY.test(key) && typeof v === 'string' && v !== '') continue;
      out[key] = scrubValue(v);
    }
    return out;
  }
  return value;
}

/**
 * group.yaml as it may travel: actor environment secrets dropped (every env key that looks like
 * a credential), other credential-named values dropped anywhere in the document, and the
 * runtime reset to stopped (`running: false`, `state: "idle"`, no runtime_states).
 */
export function scrubGroupDocument(group: Record<string, unknown>): Record<string, unknown> {
  const out = scrubValue(group) as Record<string, unknown>;
  if (Array.isArray(out.actors)) {
    out.actors = out.actors.map((actor) => {
      if (typeof actor !== 'object' || actor === null) return actor;
      const a = { ...(actor as Record<string, unknown>) };
      if (typeof a.env === 'object' && a.env !== null) {
        a.env = Object.fromEntries(Object.entries(a.env as Record<string, unknown>).filter(([k]) => !SECRET_KEY.test(k)));
      }
      return a;
    });
  }
  out.running = false;
  out.state = 'idle';
  delete out.runtime_states;
  return out;
}

/** Why an entry name is unsafe, or undefined when it is a plain relative path inside the package. */
export function unsafeEntryName(name: string): string | undefined {
  if (name.length === 0 || name.length > 1024) return 'bad_length';
  if (name.includes('\0')) return 'nul_byte';
  if (name.includes('\\')) return 'backslash';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'absolute_path';
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '..')) return 'path_traversal';
  if (parts.some((p) => p === '' || p === '.')) return 'unsafe_path';
  if (name !== MANIFEST_ENTRY && !name.startsWith(GROUP_PREFIX)) return 'unexpected_entry';
  return undefined;
}

/** `cccc-group-copy-<title slug>-<gid>-<UTC stamp>.zip`. */
export function packageFilename(groupId: string, title: string, exportedAt: string): string {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'group';
  const stamp = exportedAt.replace(/[-:]/g, '').replace(/\.\d+/, '');
  return `cccc-group-copy-${slug}-${groupId}-${stamp}.zip`;
}
