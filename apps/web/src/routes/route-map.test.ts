import { opCatalog } from '@cccc/ipc-protocol';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from '../http/errors.js';
import { buildApiRoutes } from './index.js';
import { assertOpArgs, bodySchemaOf, filledArgs, omitKeys, patchSchemaOf, refuseRejectedArgs } from './op-args.js';
import { API_PREFIX, routePath, routeQuery, webRoutes, type OpRouteName, type RouteArgs, type RouteBody, type RouteName, type RouteResult } from './route-map.js';

const names = Object.keys(webRoutes) as RouteName[];
const opRoutes = names.filter((n): n is OpRouteName => 'op' in webRoutes[n]);

/** Every path the Web answered before the route table, by method: none may go away. */
const KNOWN = [
  'GET /ping',
  'GET /ready',
  'GET /health',
  'GET /runtimes',
  'GET /groups',
  'POST /groups',
  'GET /groups/:group_id',
  'PUT /groups/:group_id',
  'DELETE /groups/:group_id',
  'POST /groups/:group_id/start',
  'POST /groups/:group_id/stop',
  'POST /groups/:group_id/state',
  'POST /groups/:group_id/attach',
  'DELETE /groups/:group_id/scopes/:scope_key',
  'GET /groups/:group_id/settings',
  'PUT /groups/:group_id/settings',
  'GET /groups/:group_id/actors',
  'POST /groups/:group_id/actors',
  'POST /groups/:group_id/actors/:actor_id',
  'PUT /groups/:group_id/actors/:actor_id',
  'DELETE /groups/:group_id/actors/:actor_id',
  'POST /groups/:group_id/actors/:actor_id/start',
  'POST /groups/:group_id/actors/:actor_id/stop',
  'POST /groups/:group_id/actors/:actor_id/restart',
  'POST /groups/:group_id/actors/:actor_id/new_session',
  'GET /groups/:group_id/actors/:actor_id/env_private',
  'POST /groups/:group_id/actors/:actor_id/env_private',
  'GET /groups/:group_id/actors/:actor_id/headless/control',
  'POST /groups/:group_id/actors/:actor_id/headless/control',
  'POST /groups/:group_id/send',
  'POST /groups/:group_id/reply',
  'POST /groups/:group_id/send_cross_group',
  'POST /groups/:group_id/tracked_send',
  'GET /groups/:group_id/actors/:actor_id/history',
  'POST /groups/:group_id/messages/:source_event_id/deliver',
  'POST /groups/:group_id/messages/:source_event_id/reply-request/cancel',
  'GET /groups/:group_id/context',
  'GET /groups/:group_id/memory/search',
  'GET /groups/:group_id/inbox/:actor_id',
  'POST /groups/:group_id/inbox/:actor_id/read',
  'GET /groups/:group_id/ledger/tail',
  'GET /groups/:group_id/ledger/search',
  'POST /groups/:group_id/ledger/statuses',
  'GET /groups/:group_id/terminal/tail',
  'GET /groups/:group_id/ledger/stream',
  'GET /events/stream',
  'GET /groups/:group_id/runtime-activity/snapshot',
  'GET /groups/:group_id/runtime-activity/stream',
  'POST /groups/:group_id/send_upload',
  'POST /groups/:group_id/reply_upload',
  'GET /groups/:group_id/blobs/:name',
  'GET /branding',
  'PUT /branding',
  'GET /branding/assets/:kind',
  'GET /groups/:group_id/presentation',
  'POST /groups/:group_id/presentation/clear',
  'GET /groups/:group_id/automation',
  'PUT /groups/:group_id/automation',
  'POST /groups/:group_id/automation/manage',
  'POST /groups/:group_id/automation/reset_baseline',
  'GET /access-tokens',
  'POST /access-tokens',
  'DELETE /access-tokens/:id',
  // Group Space (issue 29)
  'GET /groups/:group_id/space',
  'POST /groups/:group_id/space/bind',
  'POST /groups/:group_id/space/ingest',
  'POST /groups/:group_id/space/query',
  'GET /groups/:group_id/space/sources',
  'GET /groups/:group_id/space/jobs',
  // Capabilities (issue 21)
  'GET /capabilities',
  'GET /capabilities/allowlist',
  'POST /capabilities/allowlist/validate',
  'PUT /capabilities/allowlist',
  'DELETE /capabilities/allowlist',
  'GET /groups/:group_id/capabilities/search',
  'GET /groups/:group_id/capabilities/state',
  'POST /groups/:group_id/capabilities/enable',
  'POST /groups/:group_id/capabilities/block',
  'POST /groups/:group_id/capabilities/import',
  'POST /groups/:group_id/capabilities/uninstall',
  // Voice Secretary (issue 26)
  'GET /groups/:group_id/assistants',
  'PUT /groups/:group_id/assistants/:assistant_id/settings',
  'GET /groups/:group_id/assistants/voice_secretary/documents',
  'POST /groups/:group_id/assistants/voice_secretary/documents',
  'POST /groups/:group_id/assistants/voice_secretary/transcript',
  'POST /groups/:group_id/assistants/voice_secretary/input',
  'POST /groups/:group_id/assistants/voice_secretary/recording_lease',
  'POST /groups/:group_id/assistants/voice_secretary/documents/archive',
  'POST /groups/:group_id/assistants/voice_secretary/models/install',
  'POST /groups/:group_id/assistants/voice_secretary/transcriptions',
  // Copy groups and remote access (issue 31)
  'POST /groups/:group_id/copy/export',
  'POST /group-copy/preview',
  'POST /group-copy/import',
  'GET /remote-access',
  'PUT /remote-access',
  'POST /remote-access/start',
  'POST /remote-access/stop',
  'GET /groups/:group_id/im',
  'PUT /groups/:group_id/im',
  'GET /groups/:group_id/im/pending',
  'GET /groups/:group_id/im/authorized',
  'POST /groups/:group_id/im/bind',
  'POST /groups/:group_id/im/reject',
  'POST /groups/:group_id/im/revoke',
  // Settings › Guidance and Profiles (issue 33)
  'GET /groups/:group_id/preamble',
  'PUT /groups/:group_id/preamble',
  'POST /groups/:group_id/preamble/reset',
  'GET /groups/:group_id/help',
  'GET /groups/:group_id/actor-notes',
  'PUT /groups/:group_id/actor-notes/:target_actor_id',
  'DELETE /groups/:group_id/actor-notes/:target_actor_id',
  'GET /actor-profiles',
  'PUT /actor-profiles',
  'GET /actor-profiles/:profile_id',
  'DELETE /actor-profiles/:profile_id',
  'GET /actor-profiles/:profile_id/secrets',
  'POST /actor-profiles/:profile_id/secrets',
];

describe('the route table', () => {
  it('keeps every path the Web answered, each once', () => {
    const answered = names.flatMap((n) => {
      const r = webRoutes[n];
      return [`${r.method} ${r.path}`, ...('alsoMethod' in r ? [`${r.alsoMethod} ${r.path}`] : [])];
    });
    expect([...answered].sort()).toEqual([...KNOWN].sort());
  });

  it('names every path parameter after an arg of its op', () => {
    for (const name of opRoutes) {
      const shape = opCatalog[webRoutes[name].op].args.shape;
      for (const key of filledArgs(name)) expect(Object.keys(shape), `${name}: ${key}`).toContain(key);
    }
  });

  it('the server registers a handler for every route', () => {
    const api = buildApiRoutes(new DaemonClient({ home: '/nonexistent' }), {}, '/nonexistent');
    expect(api.missing()).toEqual([]);
    expect(api.router.match('PUT', `${API_PREFIX}/groups/g_1/actors/a1`).params).toEqual({ group_id: 'g_1', actor_id: 'a1' });
  });
});

describe('bodies derived from the op catalog', () => {
  it('a body is the op args less the path parameters and by', () => {
    for (const name of opRoutes.filter((n) => webRoutes[n].input === 'body')) {
      const all = Object.keys(opCatalog[webRoutes[name].op].args.shape);
      const filled = filledArgs(name);
      expect(Object.keys(bodySchemaOf(name).shape).sort(), name).toEqual(all.filter((k) => !filled.includes(k)).sort());
    }
    expect(filledArgs('send')).toEqual(['group_id', 'by']);
    expect(filledArgs('message_deliver')).toEqual(['group_id', 'source_event_id', 'by']);
    expect(filledArgs('ledger_statuses')).toEqual(['group_id']);
  });

  it('a body keeps its field rules and names the failing field', () => {
    const send = bodySchemaOf('send');
    expect(send.safeParse({ text: 'hi', message_mode: 'mail', to: ['peer'] }).success).toBe(true);
    expect(send.safeParse({ to: ['peer'], message_mode: 'send' }).error?.issues[0]?.path).toEqual(['text']);
    expect(send.safeParse({ text: 'x', message_mode: 'loud' }).error?.issues[0]?.path).toEqual(['message_mode']);
    expect(patchSchemaOf('group_update').safeParse({ title: 't' }).success).toBe(true);
    expect(patchSchemaOf('group_settings_update').safeParse('nope').success).toBe(false);
  });

  it('omitting keys keeps the strip / strict / loose policy and leaves refinements to the op schema', () => {
    const shape = { a: z.string(), b: z.string().optional(), c: z.number().optional() };
    expect(omitKeys(z.object(shape), ['a']).parse({ b: 'x', extra: 1 })).toEqual({ b: 'x' });
    expect(omitKeys(z.strictObject(shape), ['a']).safeParse({ b: 'x', extra: 1 }).success).toBe(false);
    expect(omitKeys(z.looseObject(shape), ['a']).parse({ b: 'x', extra: 1 })).toEqual({ b: 'x', extra: 1 });
    const refined = z.object(shape).refine((v) => v.a !== v.b, { path: ['b'] });
    expect(omitKeys(refined, ['a']).parse({ b: 'x' })).toEqual({ b: 'x' });
    // send's own refinement (relay provenance travels as a pair) still applies to the assembled args.
    expect(() => assertOpArgs('send', { group_id: 'g', text: 'x', message_mode: 'send', src_group_id: 'g2' })).toThrow(HttpError);
    expect(() => assertOpArgs('send', { group_id: 'g', text: 'x', message_mode: 'send' })).not.toThrow();
  });

  it('legacy message fields are refused with the daemon code, not stripped', () => {
    const refusal = (() => {
      try {
        refuseRejectedArgs('send', { text: 'x', priority: 'high' });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toMatchObject({ status: 400, code: 'unsupported_message_fields', details: { fields: ['priority'] } });
    expect(() => refuseRejectedArgs('actor_add', { priority: 'high' })).not.toThrow();
  });
});

describe('the typed client surface', () => {
  it('fills paths and queries', () => {
    expect(routePath(webRoutes.inbox_read.path, ['g 1', 'a/b'])).toBe('/api/v1/groups/g%201/inbox/a%2Fb/read');
    expect(routeQuery({ kinds: ['chat.message', 'mail.read'], limit: 10, before_event_id: undefined, with_read_status: true })).toBe(
      '?kinds=chat.message%2Cmail.read&limit=10&with_read_status=true',
    );
    expect(routeQuery({})).toBe('');
  });

  it('types bodies and results from the op catalog', () => {
    expectTypeOf<RouteArgs<'send'>>().toEqualTypeOf<[string, RouteBody<'send'>]>();
    expectTypeOf<RouteBody<'send'>>().toHaveProperty('message_mode').toEqualTypeOf<'send' | 'request_reply' | 'mail' | undefined>();
    expectTypeOf<RouteBody<'send'>>().toHaveProperty('text').toEqualTypeOf<string>();
    expectTypeOf<RouteBody<'send'>>().not.toHaveProperty('group_id');
    expectTypeOf<RouteBody<'send'>>().not.toHaveProperty('by');
    expectTypeOf<RouteBody<'actor_update'>>().not.toHaveProperty('actor_id');
    expectTypeOf<RouteResult<'send'>>().toHaveProperty('message_mode');
    expectTypeOf<RouteArgs<'actor_start'>>().toEqualTypeOf<[string, string]>();
    expectTypeOf<RouteArgs<'groups'>>().toEqualTypeOf<[]>();
    expectTypeOf<RouteResult<'runtimes'>['runtimes'][number]>().toHaveProperty('installed').toEqualTypeOf<boolean>();
  });
});
