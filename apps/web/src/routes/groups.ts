import { z } from 'zod';
import { parseJsonBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { BY, type ApiRoutes } from './api-routes.js';
import { SETTINGS_KEYS } from './route-map.js';
import { requireApprovedLaunches } from './launch-approval.js';

/** Any string, so a wrong state gets the message naming the four choices. */
const StateBody = z.object({ state: z.string().optional() });

/** Core, groups, scopes, lifecycle and settings (§8.2 "Group itself", "Lifecycle"). */
export function registerGroupRoutes(api: ApiRoutes): void {
  const { client } = api;
  // §8.1: an ordinary authenticated ping omits the daemon's local executable path.
  api.op('ping', { result: ({ executable: _localPath, ...ping }) => ping });
  /** Ready = the daemon answers ping (502 daemon_unavailable otherwise). */
  api.op('ready', { result: (ping) => ({ status: 'ready', daemon: { version: ping.version, pid: ping.pid } }) });
  /** Liveness of the Web process itself (never touches the daemon). */
  api.route('health', () => ({ status: 'ok' }));
  /** The runtime catalog and which CLIs are on the daemon's PATH (actors run there). */
  api.op('runtimes');

  api.op('groups', { result: ({ groups }, ctx) => ({ groups: groups.filter((g) => ctx.canSeeGroup(g.group_id)) }) });
  api.op('group_create');
  /** `?detail=full|summary`; other values are ignored. */
  api.op('group_show', {
    query: (url) => {
      const detail = url.searchParams.get('detail');
      return detail === 'full' || detail === 'summary' ? { detail } : {};
    },
  });
  /** The body is the patch itself (title, topic). */
  api.op('group_update');
  api.op('group_delete');
  api.op('group_start', {
    authorize: async (ctx, args) => {
      if (ctx.isAdmin()) return;
      const { actors } = await api.client.call('actor_list', { group_id: args.group_id });
      await requireApprovedLaunches(api.client, ctx, args.group_id, actors.filter((a) => a.enabled !== false).map((a) => a.id));
    },
  });
  api.op('group_stop');
  /** `POST /state?state=` (or `{state}`): active|idle|paused; `stopped` means group_stop. */
  api.route('group_state', async (ctx, { group_id }) => {
    const body = await parseJsonBody(ctx.req, StateBody);
    const state = ctx.url.searchParams.get('state') ?? body.state;
    if (state === 'stopped') return client.call('group_stop', { group_id, by: BY });
    if (state !== 'active' && state !== 'idle' && state !== 'paused') {
      throw new HttpError(400, 'invalid_request', 'state must be active, idle, paused or stopped', { field: 'state' });
    }
    return client.call('group_set_state', { group_id, state, by: BY });
  });
  api.op('attach');
  api.op('group_detach_scope');

  /** The settings sections of the group document. */
  api.route('group_settings', async (_ctx, { group_id }) => {
    const { group } = await client.call('group_show', { group_id, detail: 'full' });
    return { group_id, settings: Object.fromEntries(SETTINGS_KEYS.filter((k) => k in group).map((k) => [k, group[k]])) };
  });
  /** The body is the settings patch itself, or `{patch}`. */
  api.op('group_settings_update', { normalize: (body) => (isRecord(body) && Object.keys(body).length === 1 && isRecord(body.patch) ? body.patch : body) });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
