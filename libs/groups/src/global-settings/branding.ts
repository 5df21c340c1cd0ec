import { realpathSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { z } from 'zod';
import { groupError } from '../errors.js';

// §8.2 branding: the product name and the two Web icons. Asset paths are relative to CCCC_HOME
// and must name a regular image file inside `state/web_branding/` after every symlink is
// followed; the daemon never serves or stores a path that points anywhere else.

export const DEFAULT_PRODUCT_NAME = 'CCCC';
export const MAX_PRODUCT_NAME_LENGTH = 80;
/** Where asset paths must point, relative to the home. */
export const BRANDING_ASSET_PREFIX = 'state/web_branding/';

const ASSET_EXTENSIONS = {
  logo_icon_asset_path: ['.svg', '.png', '.jpg', '.jpeg', '.webp', '.gif', '.avif', '.ico'],
  favicon_asset_path: ['.svg', '.png', '.ico'],
} as const;
type AssetKey = keyof typeof ASSET_EXTENSIONS;

export const Branding = z.object({
  product_name: z.string(),
  logo_icon_asset_path: z.string().optional(),
  favicon_asset_path: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Branding = z.infer<typeof Branding>;

const BrandingPatch = z.strictObject({
  product_name: z.string().max(MAX_PRODUCT_NAME_LENGTH).optional(),
  logo_icon_asset_path: z.string().optional(),
  favicon_asset_path: z.string().optional(),
});

const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The effective branding from the stored section (defaults for anything missing or not a string). */
export function mergeBranding(stored: unknown): Branding {
  const raw = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const out: Branding = { product_name: str(raw['product_name']) || DEFAULT_PRODUCT_NAME };
  for (const key of ['logo_icon_asset_path', 'favicon_asset_path', 'updated_at'] as const) {
    const value = str(raw[key]);
    if (value) out[key] = value;
  }
  return out;
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Check one asset path against the home: relative, no `..` climbing, under
 * `state/web_branding/`, an allowed image extension, and a regular file whose real path is still
 * inside the assets folder (`invalid_path`; a missing file is `path_not_found`). Returns the
 * normalized `/`-separated path to store.
 */
export function checkBrandingAssetPath(home: string, key: AssetKey, input: string): string {
  const bad = (why: string) => groupError('invalid_path', `${key}: ${why}`, { field: key, path: input });
  if (input.includes('\0') || input.includes('\\')) throw bad('contains a NUL or backslash');
  if (isAbsolute(input)) throw bad(`must be relative to CCCC_HOME (under ${BRANDING_ASSET_PREFIX})`);
  const rel = normalize(input).split(sep).join('/');
  if (rel === '..' || rel.startsWith('../') || !rel.startsWith(BRANDING_ASSET_PREFIX) || rel === BRANDING_ASSET_PREFIX) {
    throw bad(`must name a file under ${BRANDING_ASSET_PREFIX}`);
  }
  const ext = extname(rel).toLowerCase();
  if (!(ASSET_EXTENSIONS[key] as readonly string[]).includes(ext)) throw bad(`extension must be one of ${ASSET_EXTENSIONS[key].join(' ')}`);
  let real: string;
  let realDir: string;
  try {
    real = realpathSync(join(home, rel));
    realDir = realpathSync(join(home, BRANDING_ASSET_PREFIX));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw groupError('path_not_found', `${key}: no such file ${rel}`, { field: key, path: input });
    throw bad(`cannot resolve (${code ?? 'error'})`);
  }
  if (!isInside(realDir, real) || real === realDir) throw bad('resolves outside the branding assets folder');
  if (!statSync(real).isFile()) throw bad('is not a regular file');
  return rel;
}

/** Apply a patch: product name trimmed (empty resets it), asset paths checked ("" clears one). */
export function applyBrandingPatch(home: string, current: Branding, patch: Record<string, unknown>, now: string): Branding {
  if (Object.keys(patch).length === 0) throw groupError('invalid_patch', 'patch is empty', {});
  const parsed = BrandingPatch.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = [...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])].join('.');
    throw groupError('invalid_patch', `branding ${path || 'patch'}: ${issue.message}`, { field: path });
  }
  const next: Branding = { ...current };
  const p = parsed.data;
  if (p.product_name !== undefined) next.product_name = p.product_name.trim() || DEFAULT_PRODUCT_NAME;
  for (const key of ['logo_icon_asset_path', 'favicon_asset_path'] as const) {
    const value = p[key];
    if (value === undefined) continue;
    if (value.trim() === '') delete next[key];
    else next[key] = checkBrandingAssetPath(home, key, value.trim());
  }
  next.updated_at = now;
  return next;
}
