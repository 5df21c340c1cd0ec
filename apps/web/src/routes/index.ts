import type { DaemonClient } from '@cccc/ipc-protocol/node';
import { VoiceAsrService } from '@cccc/voice';
import type { SseOptions } from '../sse/sse.js';
import { registerAccessTokenRoutes } from './access-tokens.js';
import { registerActorRoutes } from './actors.js';
import { ApiRoutes } from './api-routes.js';
import { registerBlobRoutes } from './blobs.js';
import { registerBoardRoutes } from './boards.js';
import { registerCapabilityRoutes } from './capabilities.js';
import { registerSpaceRoutes } from './space.js';
import { registerGroupRoutes } from './groups.js';
import { registerMessageRoutes } from './messages.js';
import { registerRuntimeActivityRoutes } from './runtime-activity.js';
import { registerStreamRoutes } from './streams.js';
import { registerUploadRoutes } from './uploads.js';
import { registerVoiceRoutes } from './voice.js';
import { registerCopyRemoteRoutes } from './copy-remote.js';
import { registerGuidanceRoutes } from './guidance.js';

/** Every route of the table (route-map.ts), each registered once; a route left out fails here. */
export function buildApiRoutes(client: DaemonClient, sse: SseOptions, home: string, voiceAsr: VoiceAsrService = new VoiceAsrService(home)): ApiRoutes {
  const api = new ApiRoutes(client, sse);
  registerGroupRoutes(api);
  registerActorRoutes(api);
  registerMessageRoutes(api);
  registerStreamRoutes(api);
  registerRuntimeActivityRoutes(api);
  registerUploadRoutes(api);
  registerBlobRoutes(api);
  registerAccessTokenRoutes(api, home);
  registerBoardRoutes(api, home);
  registerCapabilityRoutes(api);
  registerVoiceRoutes(api, voiceAsr);
  registerSpaceRoutes(api);
  registerCopyRemoteRoutes(api);
  registerGuidanceRoutes(api);
  const missing = api.missing();
  if (missing.length > 0) throw new Error(`routes without a handler: ${missing.join(', ')}`);
  return api;
}
