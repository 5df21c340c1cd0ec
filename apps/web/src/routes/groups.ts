import { z } from 'zod';
import { parseJsonBody, queryBool } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { Router } from '../http/router.js';
import { BY, type RouteDeps } from './deps.js';

const SETTINGS_KEYS = ['messaging', 'delivery', 'automation', 'terminal_transcript'] as const;

const GroupCreateBody = z.object({ title: z.string().optional(), topic: z.string().optional() });
const GroupPatchBody = z.object({ title: z.string().optional(), topic: z.string().optional() });
const StateBody = z.object({ state: z.string().optional() });
const AttachBody = z.object({ path: z.string().min(1) });
const SettingsBody = z.record(z.string(), z.unknown());

/** Groups, scopes, lifecycle and settings (§8.2 "Group itself", "Lifecycle"). */
export function groupRoutes({ client }: RouteDeps): Router {
  const r = new Router('/api/v1');
  // §8.1: an ordinary authenticated ping omits the daemon's local executable path.
  r.get('/ping', async () => {
    const { executable: _localPath, ...ping } = await client.call('ping', {});
    return ping;
  });
  /** Liveness of the Web process itself (never touches the daemon). */
  r.get('/health', () => ({ status: 'ok' }));
  /** Ready = the daemon answers ping (502 daemon_unavailable otherwise). */
  r.get('/ready', async () => {
    const ping = await client.call('ping', {});
    return { status: 'ready', daemon: { version: ping.version, pid: ping.pid } };
  });

  r.get('/groups', async (ctx) => {
    const { groups } = await client.call('groups', {});
    return { groups: groups.filter((g) => ctx.canSeeGroup(g.group_id)) };
  });
  r.post('/groups', async (ctx) => {
    ctx.requireAdmin();
    const body = await parseJsonBody(ctx.req, GroupCreateBody);
    return client.call('group_create', { ...body, by: BY });
  });

  r.get('/groups/:gid', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const detail = ctx.url.searchParams.get('detail');
    return client.call('group_show', { group_id: gid, ...(detail === 'full' || detail === 'summary' ? { detail } : {}) });
  });
  r.put('/groups/:gid', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const patch = await parseJsonBody(ctx.req, GroupPatchBody);
    return client.call('group_update', { group_id: gid, patch, by: BY });
  });
  r.delete('/groups/:gid', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    return client.call('group_delete', { group_id: gid, by: BY });
  });

  r.post('/groups/:gid/start', (ctx) => {
    ctx.requireGroup(ctx.params.gid!);
    return client.call('group_start', { group_id: ctx.params.gid!, by: BY });
  });
  r.post('/groups/:gid/stop', (ctx) => {
    ctx.requireGroup(ctx.params.gid!);
    return client.call('group_stop', { group_id: ctx.params.gid!, by: BY });
  });
  /** `POST /state?state=` (or `{state}`): active|idle|paused; `stopped` means group_stop. */
  r.post('/groups/:gid/state', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = await parseJsonBody(ctx.req, StateBody);
    const state = ctx.url.searchParams.get('state') ?? body.state;
    if (state === 'stopped') return client.call('group_stop', { group_id: gid, by: BY });
    if (state !== 'active' && state !== 'idle' && state !== 'paused') {
      throw new HttpError(400, 'invalid_request', 'state must be active, idle, paused or stopped', { field: 'state' });
    }
    return client.call('group_set_state', { group_id: gid, state, by: BY });
  });

  r.post('/groups/:gid/attach', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const { path } = await parseJsonBody(ctx.req, AttachBody);
    return client.call('attach', { path, group_id: gid, by: BY });
  });
  r.delete('/groups/:gid/scopes/:sk', (ctx) => {
    ctx.requireGroup(ctx.params.gid!);
    return client.call('group_detach_scope', { group_id: ctx.params.gid!, scope_key: ctx.params.sk!, by: BY });
  });

  r.get('/groups/:gid/settings', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const { group } = await client.call('group_show', { group_id: gid, detail: 'full' });
    const doc = group as Record<string, unknown>;
    return { group_id: gid, settings: Object.fromEntries(SETTINGS_KEYS.filter((k) => k in doc).map((k) => [k, doc[k]])) };
  });
  /** The body is the settings patch itself, or `{patch}`. */
  r.put('/groups/:gid/settings', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = await parseJsonBody(ctx.req, SettingsBody);
    const patch = Object.keys(body).length === 1 && isRecord(body.patch) ? body.patch : body;
    return client.call('group_settings_update', { group_id: gid, patch, by: BY });
  });

  // Only read here: the flag is parsed so a malformed value is a 400 rather than ignored.
  r.get('/groups/:gid/actors', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const include_unread = queryBool(ctx.url, 'include_unread');
    return client.call('actor_list', { group_id: gid, ...(include_unread !== undefined ? { include_unread } : {}) });
  });
  return r;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
