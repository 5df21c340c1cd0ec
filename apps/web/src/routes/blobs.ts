import { BLOB_NAME_PATTERN } from '@cccc/ipc-protocol';
import { HttpError } from '../http/errors.js';
import { BY, type ApiRoutes } from './api-routes.js';
import { RESPONDED } from './sse-bridge.js';

/** Rendered inline: raster images and plain text only. Everything else is a download. */
const INLINE: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain; charset=utf-8',
  md: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  csv: 'text/plain; charset=utf-8',
  json: 'text/plain; charset=utf-8',
};

/**
 * `GET /groups/{gid}/blobs/{name}` (REFERENCE_NOTES §8.2): an attachment's bytes, read through
 * the daemon (`blob_read`). Uploaded content is untrusted and served from the app's own origin,
 * so nothing is ever rendered as active content: only images and plain text are inline, every
 * response has `nosniff` and a sandboxing CSP, and the rest (HTML, SVG, PDF, ...) downloads.
 */
export function registerBlobRoutes(api: ApiRoutes): void {
  api.route('blob', async (ctx, { group_id, name }): Promise<typeof RESPONDED> => {
    if (!BLOB_NAME_PATTERN.test(name)) throw new HttpError(400, 'invalid_blob', 'not a stored blob name (<sha256>_<name>)', { name });
    const blob = await api.client.readBlob({ group_id, name, by: BY });
    const title = name.slice(65);
    const ext = /\.([A-Za-z0-9]+)$/.exec(title)?.[1]?.toLowerCase() ?? '';
    const inline = INLINE[ext];
    ctx.res.writeHead(200, {
      'Content-Type': inline ?? 'application/octet-stream',
      'Content-Length': blob.bytes,
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${title}"`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      // Content-addressed names never change content.
      'Cache-Control': 'private, max-age=31536000, immutable',
    });
    ctx.res.on('close', () => blob.close());
    try {
      for await (const chunk of blob.body) {
        if (ctx.res.destroyed) break;
        // Wait for the browser to take the bytes, or for it to go away (then the loop ends).
        if (!ctx.res.write(chunk)) await new Promise((resolve) => (ctx.res.once('drain', resolve), ctx.res.once('close', resolve)));
      }
      ctx.res.end();
    } catch {
      ctx.res.destroy();
    }
    return RESPONDED;
  });
}
