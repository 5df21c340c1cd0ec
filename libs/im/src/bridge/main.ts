import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { DaemonClient, resolveCcccHome } from '@cccc/ipc-protocol/node';
import { ImAuthError } from '../adapter.js';
import type { ImSecrets } from '../config.js';
import { createAdapter } from './adapter-factory.js';
import { ImBridge, type BridgeDaemon, type BridgeLog } from './bridge.js';
import { acquireTokenLock } from './token-lock.js';

/** Exit codes the supervisor reads: 0 nothing to run, 3 token rejected, 78 not configurable. */
export const BRIDGE_EXIT = { idle: 0, failed: 1, auth: 3, config: 78 } as const;

function readSecrets(home: string, groupId: string): ImSecrets {
  try {
    return JSON.parse(readFileSync(join(home, 'state', 'secrets', 'im', `${groupId}.json`), 'utf8')) as ImSecrets;
  } catch {
    return {};
  }
}

function daemonOf(client: DaemonClient): BridgeDaemon {
  return {
    async send({ group_id, text, client_id }) {
      await client.call('send', { group_id, text, by: 'user', message_mode: 'send', client_id });
    },
    async *events(groupId, sinceEventId, signal) {
      const stream = await client.openEventsStream({ group_id: groupId, by: 'user', ...(sinceEventId ? { since_event_id: sinceEventId } : {}) });
      const close = () => stream.close();
      signal.addEventListener('abort', close, { once: true });
      try {
        for await (const item of stream) {
          if (item.t === 'event') yield (item as { event: CCCSEventV1 }).event;
          else if (item.t === 'error') throw new Error(`event stream ended by the daemon: ${String((item as { code?: unknown }).code)}`);
        }
      } finally {
        signal.removeEventListener('abort', close);
        close();
      }
    },
  };
}

/** The bridge child process: `node bridge-main.js --group <group_id>` with CCCC_HOME set. */
export async function bridgeMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { group: { type: 'string' } } });
  const groupId = values.group ?? '';
  const log: BridgeLog = (level, message, fields = {}) =>
    process.stderr.write(`${JSON.stringify({ ts: new Date().toISOString(), level, component: 'im_bridge', group_id: groupId, message, ...fields })}\n`);
  if (!groupId) {
    log('error', 'no --group given');
    return BRIDGE_EXIT.config;
  }
  const home = resolveCcccHome(env);
  const client = new DaemonClient({ home });
  const { im } = await client.call('im_config_get', { group_id: groupId });
  if (!im?.enabled) return BRIDGE_EXIT.idle;
  const secrets = readSecrets(home, groupId);
  const adapter = createAdapter(im.platform, secrets, env);
  if (!adapter || !secrets.bot_token) {
    log('error', 'no adapter or token for the configured platform', { platform: im.platform });
    return BRIDGE_EXIT.config;
  }

  const stop = new AbortController();
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => stop.abort());
  // No orphans: when the daemon that started us is gone, so are we.
  const parent = process.ppid;
  const watch = setInterval(() => process.ppid !== parent && stop.abort(), 500);
  watch.unref();

  const lock = await acquireTokenLock(home, im.platform, secrets.bot_token, stop.signal, () =>
    log('warn', 'another bridge polls this bot token; waiting for it to stop'),
  );
  if (!lock) return BRIDGE_EXIT.idle;
  try {
    log('info', 'bridge started', { platform: im.platform });
    const bridge = new ImBridge({
      groupId,
      stateDir: join(home, 'groups', groupId, 'state'),
      adapter,
      daemon: daemonOf(client),
      log,
      forwardPublicNotify: im.forward_public_notify,
    });
    await bridge.run(stop.signal);
    log('info', 'bridge stopped');
    return BRIDGE_EXIT.idle;
  } catch (err) {
    if (err instanceof ImAuthError) {
      log('error', 'the platform rejected the bot token', { platform: im.platform });
      return BRIDGE_EXIT.auth;
    }
    log('error', 'bridge failed', { error: err instanceof Error ? `${err.name}: ${err.message}` : 'unknown' });
    return BRIDGE_EXIT.failed;
  } finally {
    lock.release();
    clearInterval(watch);
  }
}
