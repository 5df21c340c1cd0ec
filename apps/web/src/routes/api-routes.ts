import type { OpArgsInput, OpResult } from '@cccc/ipc-protocol';
import type { DaemonClient, EventStream } from '@cccc/ipc-protocol/node';
import type { z } from 'zod';
import { parseWith, readJson } from '../http/body.js';
import { readMultipart, type MultipartForm, type MultipartLimits } from '../http/multipart.js';
import { UploadGate } from '../http/upload-gate.js';
import { Router, type RequestContext } from '../http/router.js';
import { DEFAULT_SSE_HEARTBEAT_MS, SseClient, type SseOptions } from '../sse/sse.js';
import { assertOpArgs, bodySchemaOf, filledArgs, patchSchemaOf, refuseRejectedArgs } from './op-args.js';
import {
  API_PREFIX,
  pathParamNames,
  webRoutes,
  type FilledArgs,
  type OpRouteName,
  type RouteName,
  type RouteOp,
  type RouteParamNames,
  type RouteResult,
  type RouteSpec,
  type WebRoutes,
} from './route-map.js';
import { RESPONDED, bridge, type SseFrame, type StreamItem } from './sse-bridge.js';

/** Uploads whose bodies are in memory at once; more wait for a turn before their body is read. */
export const MAX_CONCURRENT_UPLOADS = 4;

/** The Web always acts as the user (§8.2). */
export const BY = 'user';

/** A route's path parameters, by name (each one an op arg). */
export type RouteParams<N extends RouteName> = Readonly<Record<RouteParamNames<N>[number], string>>;

/** The op args a `query` route reads from its query string (everything its path does not fill). */
export type QueryArgs<N extends OpRouteName> = Omit<OpArgsInput<RouteOp<N>>, FilledArgs<N>>;

type QueryRouteName = { [N in OpRouteName]: WebRoutes[N]['input'] extends 'query' ? N : never }[OpRouteName];
type FormRouteName = { [N in RouteName]: WebRoutes[N]['input'] extends 'form' ? N : never }[RouteName];
type SseRouteName = { [N in RouteName]: WebRoutes[N]['input'] extends 'sse' ? N : never }[RouteName];

export interface OpRouteOptions<N extends OpRouteName> {
  /** Legacy body shapes turned into the canonical one before parsing (e.g. a bare patch). */
  readonly normalize?: (body: unknown) => unknown;
  /** A check that needs the args (the caller must reach a second group, ...). */
  readonly authorize?: (ctx: RequestContext, args: OpArgsInput<RouteOp<N>>) => void | Promise<void>;
  /** What the route answers instead of the op's own result (the table's result type). */
  readonly result?: (result: OpResult<RouteOp<N>>, ctx: RequestContext) => RouteResult<N>;
}

type OptionsFor<N extends OpRouteName> = [N] extends [QueryRouteName]
  ? [options: OpRouteOptions<N> & { readonly query: (url: URL) => QueryArgs<N> }]
  : [options?: OpRouteOptions<N>];

/** What a handler answers: the route's result as the table types it, or RESPONDED (it wrote the response). */
export type RouteAnswer<N extends RouteName> = RouteResult<N> | typeof RESPONDED | Promise<RouteResult<N> | typeof RESPONDED>;

/** A handler of a route the table has but that is not one plain op call. */
export type RouteHandler<N extends RouteName> = (ctx: RequestContext, params: RouteParams<N>) => RouteAnswer<N>;

/**
 * The Web's routes, registered from the route table (route-map.ts) with one helper per pattern:
 * `op` (one daemon op: body / patch / query → args, path params and `by` filled in), `stream`
 * (a daemon stream bridged to SSE), `upload` (multipart), and `route` for the rest (downloads,
 * the Web's own routes). Every helper does the common part once: the admin check, and the
 * access check of the group a `:group_id` path names (a group the daemon does not know answers
 * with its own `group_not_found`, 404, as before).
 */
export class ApiRoutes {
  readonly router = new Router();
  private readonly registered = new Set<RouteName>();
  /** Upload bodies held in memory at once (each up to its route's body limit). */
  readonly uploads = new UploadGate(MAX_CONCURRENT_UPLOADS);

  constructor(
    readonly client: DaemonClient,
    readonly sse: SseOptions = {},
  ) {}

  /** A route that is one daemon op call, its args typed by the op. */
  op<N extends OpRouteName>(name: N, ...[given]: OptionsFor<N>): this {
    const options: (OpRouteOptions<N> & { readonly query?: (url: URL) => QueryArgs<N> }) | undefined = given;
    const route: RouteSpec = webRoutes[name];
    const op: RouteOp<N> = webRoutes[name].op;
    const fillsBy = filledArgs(name).includes('by');
    const input = this.inputReader(name, route, options?.query, options?.normalize);
    return this.register(name, async (ctx, params) => {
      const args = { ...(await input(ctx)), ...params, ...(fillsBy ? { by: BY } : {}) };
      assertOpArgs(op, args);
      await options?.authorize?.(ctx, args);
      const result = await this.client.call(op, args);
      return options?.result ? options.result(result, ctx) : result;
    });
  }

  /**
   * A daemon stream as SSE: opened before the SSE headers, so a refusal (group_not_found, ...)
   * still gets the JSON envelope and its status; `toFrame` names the frames.
   */
  stream<N extends SseRouteName>(
    name: N,
    open: (ctx: RequestContext, params: RouteParams<N>) => Promise<EventStream>,
    toFrame: (item: StreamItem, ctx: RequestContext) => SseFrame | undefined,
  ): this {
    const recheckMs = this.sse.heartbeatMs ?? DEFAULT_SSE_HEARTBEAT_MS;
    const route: RouteSpec = webRoutes[name];
    return this.register(name, async (ctx, params) => {
      const stream = await open(ctx, params);
      // A group stream ends once the caller's token no longer grants that group.
      const groupId = route.path.includes(':group_id') ? ctx.params.group_id : undefined;
      bridge(stream, new SseClient(ctx.res, this.sse), (item) => toFrame(item, ctx), () => ctx.stillAdmitted(groupId), recheckMs);
      return RESPONDED;
    });
  }

  /**
   * A multipart upload: the body is read within `limits` (413 / 400 before anything is stored)
   * and handed over with the path parameters; at most MAX_CONCURRENT_UPLOADS at once, from
   * reading the body until the handler is done with it.
   */
  upload<N extends FormRouteName>(
    name: N,
    limits: MultipartLimits,
    handler: (form: MultipartForm, params: RouteParams<N>, ctx: RequestContext) => Promise<RouteResult<N>>,
  ): this {
    return this.route(name, (ctx, params) => this.uploads.run(async () => handler(await readMultipart(ctx.req, limits), params, ctx)));
  }

  /** Any route of the table, answering what the table says it answers. */
  route<N extends RouteName>(name: N, handler: RouteHandler<N>): this {
    return this.register(name, handler);
  }

  /** Register a route of the table, with the common checks done first. */
  private register<N extends RouteName>(name: N, handler: (ctx: RequestContext, params: RouteParams<N>) => unknown): this {
    if (this.registered.has(name)) throw new Error(`route ${name} is registered twice`);
    this.registered.add(name);
    const route: RouteSpec = webRoutes[name];
    const names = pathParamNames(route.path);
    const namesGroup = names.includes('group_id');
    const run = (ctx: RequestContext) => {
      if (route.admin) ctx.requireAdmin();
      if (namesGroup) ctx.requireGroup(ctx.params.group_id!);
      if (!hasParams<RouteParamNames<N>[number]>(ctx.params, names)) throw new Error(`route ${name}: path parameters missing`);
      return handler(ctx, ctx.params);
    };
    this.router.on(route.method, API_PREFIX + route.path, run);
    if (route.alsoMethod) this.router.on(route.alsoMethod, API_PREFIX + route.path, run);
    return this;
  }

  /** Routes of the table nobody registered (the server refuses to start with any). */
  missing(): RouteName[] {
    return (Object.keys(webRoutes) as RouteName[]).filter((name) => !this.registered.has(name));
  }

  /** How a route's non-path args are read from the request, by its input kind. */
  private inputReader<N extends OpRouteName>(
    name: N,
    route: RouteSpec,
    query: ((url: URL) => object) | undefined,
    normalize: ((body: unknown) => unknown) | undefined,
  ): (ctx: RequestContext) => Promise<object> {
    const op = webRoutes[name].op;
    const readBody = async (ctx: RequestContext) => {
      const body = await readJson(ctx.req);
      return normalize ? normalize(body) : body;
    };
    switch (route.input) {
      case 'body': {
        const schema: z.ZodType<object> = bodySchemaOf(name);
        return async (ctx) => {
          const body = await readBody(ctx);
          refuseRejectedArgs(op, body);
          return parseWith(schema, isObject(body) ? { ...route.defaults, ...body } : body, 'body');
        };
      }
      case 'patch': {
        const schema = patchSchemaOf(name);
        return async (ctx) => ({ patch: parseWith(schema, await readBody(ctx), 'body') });
      }
      case 'query':
        if (!query) throw new Error(`route ${name} reads its args from the query but has no query reader`);
        return async (ctx) => query(ctx.url);
      case 'none':
        return async () => ({});
      default:
        throw new Error(`route ${name}: a ${route.input} route is not one op call`);
    }
  }
}

function hasParams<K extends string>(params: Readonly<Record<string, string>>, names: readonly string[]): params is Readonly<Record<K, string>> {
  return names.every((n) => typeof params[n] === 'string');
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
