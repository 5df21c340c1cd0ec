import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Where the built browser app lives: `dist/app` next to the built server (`dist/index.js`), or,
 * when the server runs from source under vitest, `../dist/app` relative to `src/`.
 */
export function defaultAppDir(): string | undefined {
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const candidate of [join(here, 'app'), join(here, '..', 'dist', 'app'), join(here, '..', '..', 'dist', 'app')]) {
    if (existsSync(join(candidate, 'index.html'))) return resolve(candidate);
  }
  return undefined;
}

/**
 * Serve the single-page app: a file under `appDir` when the path names one, otherwise
 * `index.html` (client-side routes and deep links such as `/?group=…`). The shell holds no data,
 * so it is served without a token; every API call it makes is authenticated.
 * Hashed assets are immutable; `index.html` is never cached so a rebuild is picked up at once.
 */
export function serveSpa(appDir: string, req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    pathname = '/';
  }
  const root = resolve(appDir);
  const candidate = resolve(root, '.' + pathname);
  const inside = candidate === root || candidate.startsWith(root + sep);
  let file = join(root, 'index.html');
  if (inside && pathname !== '/' && !pathname.includes('\0')) {
    try {
      if (statSync(candidate).isFile()) file = candidate;
    } catch {
      // not a file of the app: fall through to the shell
    }
  }
  const isShell = file === join(root, 'index.html');
  if (!isShell && !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  const headers: Record<string, string> = {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(statSync(file).size),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': isShell ? 'no-store' : file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (isShell) headers['Content-Security-Policy'] = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'";
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
