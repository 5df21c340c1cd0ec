import { z } from 'zod';
import { parseJsonBody } from '../http/body.js';
import { Router } from '../http/router.js';
import { BY, type RouteDeps } from './deps.js';
import { isRecord } from './groups.js';

/** Everything the daemon validates itself passes through; identity keys come from the path. */
const ActorBody = z.looseObject({ actor_id: z.string().optional() });
const ActorUpdateBody = z.record(z.string(), z.unknown());
const EnvPrivateBody = z.object({
  set: z.record(z.string(), z.string()).optional(),
  unset: z.array(z.string()).optional(),
  clear: z.boolean().optional(),
});

function withoutIdentity(body: Record<string, unknown>): Record<string, unknown> {
  const { group_id: _g, by: _b, ...rest } = body;
  return rest;
}

/** Actors: CRUD, lifecycle, private env keys (§8.2 "Actors"). */
export function actorRoutes({ client }: RouteDeps): Router {
  const r = new Router('/api/v1/groups/:gid');

  r.post('/actors', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = await parseJsonBody(ctx.req, ActorBody);
    return client.call('actor_add', { ...(withoutIdentity(body) as object), group_id: gid, by: BY });
  });

  /** `{patch, profile_id?, profile_action?}`, or the patch fields themselves. */
  const update = async (ctx: Parameters<Parameters<Router['post']>[1]>[0]) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = withoutIdentity(await parseJsonBody(ctx.req, ActorUpdateBody));
    const { actor_id: _a, ...rest } = body;
    const args = isRecord(rest.patch)
      ? { patch: rest.patch, profile_id: rest.profile_id, profile_action: rest.profile_action }
      : { patch: rest };
    return client.call('actor_update', {
      ...(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as { patch: Record<string, unknown> }),
      group_id: gid,
      actor_id: ctx.params.aid!,
      by: BY,
    });
  };
  r.post('/actors/:aid', update);
  r.put('/actors/:aid', update);
  r.delete('/actors/:aid', (ctx) => {
    ctx.requireGroup(ctx.params.gid!);
    return client.call('actor_remove', { group_id: ctx.params.gid!, actor_id: ctx.params.aid!, by: BY });
  });

  for (const action of ['start', 'stop', 'restart', 'new_session'] as const) {
    const op = action === 'new_session' ? 'actor_new_session' : (`actor_${action}` as const);
    r.post(`/actors/:aid/${action}`, (ctx) => {
      ctx.requireGroup(ctx.params.gid!);
      return client.call(op, { group_id: ctx.params.gid!, actor_id: ctx.params.aid!, by: BY });
    });
  }

  r.get('/actors/:aid/env_private', (ctx) => {
    ctx.requireGroup(ctx.params.gid!);
    return client.call('actor_env_private_keys', { group_id: ctx.params.gid!, actor_id: ctx.params.aid!, by: BY });
  });
  r.post('/actors/:aid/env_private', async (ctx) => {
    ctx.requireGroup(ctx.params.gid!);
    const body = await parseJsonBody(ctx.req, EnvPrivateBody);
    return client.call('actor_env_private_update', { ...body, group_id: ctx.params.gid!, actor_id: ctx.params.aid!, by: BY });
  });
  return r;
}
