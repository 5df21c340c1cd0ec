// The Web port's server half: /api/v1 over node:http, SSE bridges and access tokens. The
// browser app (React SPA) is not built yet.
export { startWebServer, DEFAULT_WEB_HOST, DEFAULT_WEB_PORT, type WebServer, type WebServerOptions } from './server.js';
export {
  AccessTokenStore,
  accessTokensPath,
  createAccessToken,
  readAccessTokens,
  revokeAccessToken,
  tokenPrefix,
  type AccessToken,
  type CreateTokenOptions,
} from './auth/tokens.js';
export { statusForCode } from './http/errors.js';
export { SseClient, type SseOptions } from './sse/sse.js';
