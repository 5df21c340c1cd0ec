import { open, realpath } from 'node:fs/promises';
import { extname, join, relative, sep, isAbsolute } from 'node:path';
import { HttpError } from '../http/errors.js';
import type { ApiRoutes } from './api-routes.js';
import { RESPONDED } from './sse-bridge.js';

/** Icon types the branding assets may have, as the daemon admits them (§8.2). */
const ICON_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
};
const MAX_ASSET_BYTES = 2 * 1024 * 1024;

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/**
 * §8.2 branding, §8.13 presentation and §8.3 automation: op routes, plus the branding icons
 * served from CCCC_HOME/state/web_branding (the path comes from branding_get; it is re-checked
 * here, symlinks resolved, before a byte is read).
 */
export function registerBoardRoutes(api: ApiRoutes, home: string): void {
  api.op('branding');
  api.op('branding_update');
  api.route('branding_asset', async (ctx, { kind }): Promise<typeof RESPONDED> => {
    if (kind !== 'logo_icon' && kind !== 'favicon') throw new HttpError(404, 'not_found', 'no such branding asset', { kind });
    const { branding } = await api.client.call('branding_get', {});
    const rel = kind === 'logo_icon' ? branding.logo_icon_asset_path : branding.favicon_asset_path;
    const type = rel ? ICON_TYPES[extname(rel).toLowerCase()] : undefined;
    if (!rel || !type) throw new HttpError(404, 'not_found', 'no branding asset set', { kind });
    let real: string;
    try {
      const dir = await realpath(join(home, 'state', 'web_branding'));
      real = await realpath(join(home, rel));
      if (!inside(dir, real)) throw new Error('outside');
    } catch {
      throw new HttpError(404, 'not_found', 'branding asset unavailable', { kind });
    }
    const handle = await open(real, 'r');
    try {
      const st = await handle.stat();
      if (!st.isFile() || st.size > MAX_ASSET_BYTES) throw new HttpError(404, 'not_found', 'branding asset unavailable', { kind });
      const bytes = await handle.readFile();
      ctx.res.writeHead(200, {
        'Content-Type': type,
        'Content-Length': bytes.length,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        'Cache-Control': 'no-cache',
      });
      ctx.res.end(bytes);
      return RESPONDED;
    } finally {
      await handle.close();
    }
  });
  api.op('presentation');
  api.op('presentation_clear');
  api.op('automation');
  api.op('automation_update');
  api.op('automation_manage');
  api.op('automation_reset_baseline');
}
