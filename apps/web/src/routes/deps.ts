import type { DaemonClient } from '@cccc/ipc-protocol/node';
import type { SseOptions } from '../sse/sse.js';

/** What every route file gets: the daemon client (the Web's only way to the kernel). */
export interface RouteDeps {
  readonly client: DaemonClient;
  readonly sse: SseOptions;
}

/** The Web always acts as the user (§8.2). */
export const BY = 'user';
