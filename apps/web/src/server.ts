import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DaemonClient, isLoopbackHost } from '@cccc/ipc-protocol/node';
import { authenticate, canSeeGroup, isAdminPrincipal, requireAdmin, requireGroup, stillAdmitted } from './auth/guard.js';
import { AccessTokenStore } from './auth/tokens.js';
import { remoteAccessOn } from './auth/remote-gate.js';
import { HttpError, toErrorResponse } from './http/errors.js';
import { checkBrowserOrigin } from './http/origin.js';
import { Router, type RequestContext } from './http/router.js';
import { buildApiRoutes } from './routes/index.js';
import { RESPONDED } from './routes/sse-bridge.js';
import type { SseOptions } from './sse/sse.js';
import { defaultAppDir, serveSpa } from './static/spa.js';
import { TERM_PATH, TermBridge, rejectUpgrade, type TermBridgeOptions } from './ws/term-bridge.js';
import { VoiceAsrService } from '@cccc/voice';
import { TranscriptionWs, VOICE_WS_PATH, type TranscriptionWsOptions } from './voice/transcription-ws.js';

export interface WebServerOptions {
  /** CCCC_HOME: the daemon is discovered here and access_tokens.yaml is read from here. */
  readonly home: string;
  readonly host?: string;
  /** 0 picks a free port (tests). */
  readonly port?: number;
  /** Per-call daemon timeout. */
  readonly daemonTimeoutMs?: number;
  readonly sse?: SseOptions;
  readonly term?: TermBridgeOptions;
  /** Voice Secretary transcription WebSocket bounds (tests shrink them). */
  readonly voiceWs?: TranscriptionWsOptions;
  /** The built browser app (`dist/app`); found next to the server when omitted. */
  readonly appDir?: string;
}

export interface WebServer extends AsyncDisposable {
  readonly host: string;
  readonly port: number;
  /** `http://host:port` (IPv6 hosts bracketed). */
  readonly url: string;
  close(): Promise<void>;
}

import { DEFAULT_WEB_HOST, DEFAULT_WEB_PORT } from './defaults.js';

export { DEFAULT_WEB_HOST, DEFAULT_WEB_PORT };

/**
 * Start the Web port: `/api/v1` over `node:http`, a client of the daemon IPC only. A
 * non-loopback host is refused unless remote access is on and an admin access token exists (IPC spec §8.17).
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? DEFAULT_WEB_HOST;
  const tokens = new AccessTokenStore(options.home);
  if (!isLoopbackHost(host) && !remoteAccessOn(options.home)) {
    throw new Error(
      `refusing to bind the Web to non-loopback host ${host} while remote access is off; ` +
        'configure and start it first (remote_access_configure provider=manual, then remote_access_start)',
    );
  }
  if (!isLoopbackHost(host) && !tokens.hasAdmin()) {
    throw new Error(
      `refusing to bind the Web to non-loopback host ${host} without an admin access token; ` +
        'create one with `cccc web token create --admin` first',
    );
  }
  const client = new DaemonClient({ home: options.home, timeoutMs: options.daemonTimeoutMs ?? 30_000 });
  const voiceAsr = new VoiceAsrService(options.home);
  const router = buildApiRoutes(client, options.sse ?? {}, options.home, voiceAsr).router;
  const voiceWs = new TranscriptionWs(client, voiceAsr, options.voiceWs);

  const appDir = options.appDir ?? defaultAppDir();
  const server = createServer((req, res) => {
    void handle(router, tokens, host, appDir, req, res);
  });
  const term = new TermBridge(client, options.term);
  server.on('upgrade', (req, socket, head) => {
    void (async () => {
      try {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const voice = VOICE_WS_PATH.exec(url.pathname);
        if (voice) {
          checkBrowserOrigin(req, host, { requireSameOriginAlways: true });
          const principal = authenticate(tokens, req, undefined, url, { remote: !isLoopbackHost(host) });
          requireGroup(principal, decodeURIComponent(voice[1]!));
          return await voiceWs.handleUpgrade(req, socket, head, url, decodeURIComponent(voice[1]!));
        }
        const m = TERM_PATH.exec(url.pathname);
        if (!m) throw new HttpError(404, 'unknown_route', `no WebSocket route ${url.pathname}`);
        checkBrowserOrigin(req, host, { requireSameOriginAlways: true });
        const principal = authenticate(tokens, req, undefined, url, { remote: !isLoopbackHost(host) });
        const gid = decodeURIComponent(m[1]!);
        requireGroup(principal, gid);
        await term.handleUpgrade(req, socket, head, url, gid, decodeURIComponent(m[2]!), () => stillAdmitted(tokens, principal, gid));
      } catch (error) {
        rejectUpgrade(socket, error);
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_WEB_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const close = () =>
    new Promise<void>((resolve) => {
      term.close();
      voiceWs.close();
      voiceAsr.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { host, port: address.port, url: `http://${urlHost}:${address.port}`, close, [Symbol.asyncDispose]: close };
}

async function handle(
  router: Router,
  tokens: AccessTokenStore,
  host: string,
  appDir: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith('/api/')) {
      checkBrowserOrigin(req, host);
      if (!appDir) throw new HttpError(404, 'not_found', 'the browser app is not built (run `npm run build`); only /api/v1 is served');
      adoptQueryToken(tokens, host, req, res, url);
      serveSpa(appDir, req, res, url);
      return;
    }
    checkBrowserOrigin(req, host);
    const principal = authenticate(tokens, req, res, url, { remote: !isLoopbackHost(host) });
    const { handler, params } = router.match(req.method ?? 'GET', url.pathname);
    const ctx: RequestContext = {
      req,
      res,
      url,
      params,
      requireGroup: (gid) => requireGroup(principal, gid),
      requireAdmin: () => requireAdmin(principal),
      isAdmin: () => isAdminPrincipal(principal),
      canSeeGroup: (gid) => canSeeGroup(principal, gid),
      stillAdmitted: (gid) => stillAdmitted(tokens, principal, gid),
    };
    const result = await handler(ctx);
    if (result === RESPONDED) return;
    sendJson(res, 200, { ok: true, result: result ?? null });
  } catch (error) {
    const { status, error: body } = toErrorResponse(error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendJson(res, status, { ok: false, error: body });
  }
}

/**
 * A link such as `/?group=g_1&token=acc_…` logs the browser in: a valid token from the query is
 * moved into the HttpOnly cookie (the app then drops it from the address bar). An invalid or
 * missing token is not an error for the shell; the app's first API call answers 401.
 */
function adoptQueryToken(tokens: AccessTokenStore, host: string, req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (!url.searchParams.has('token')) return;
  try {
    authenticate(tokens, req, res, url, { remote: !isLoopbackHost(host) });
  } catch {
    // the shell is public; the API calls it makes are not
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}
