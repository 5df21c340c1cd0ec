import {
  pathParamNames,
  routePath,
  routeQuery,
  webRoutes,
  type RouteArgs,
  type RouteName,
  type RouteResult,
  type RouteSpec,
  type UploadFields,
  type WebRoutes,
} from '../../../src/routes/route-map';
import { request } from './http';

export type { RouteBody, RouteQuery, RouteResult } from '../../../src/routes/route-map';

// The browser's typed client, generated from the Web's route table (the same map the server
// registers its handlers from): `api.send(groupId, body)` takes the body the `send` op accepts
// less what the route fills in, and resolves to the op's result. Streams and downloads are read
// by URL (`routeUrl`). Only the table's types come from the protocol package; nothing of zod or
// the op catalog is bundled.

/** Routes answered with the JSON envelope. */
export type CallableRoute = { [N in RouteName]: WebRoutes[N]['input'] extends 'sse' | 'raw' ? never : N }[RouteName];
/** Routes read by URL: SSE streams (EventSource) and raw downloads (links, images). */
export type UrlRoute = Exclude<RouteName, CallableRoute>;

/** Call one route: its path arguments in path order, then its body, query or upload fields. */
export function call<N extends CallableRoute>(name: N, ...args: RouteArgs<N>): Promise<RouteResult<N>> {
  return invoke(webRoutes[name], args);
}

/** The URL of a stream or download route, with its query. */
export function routeUrl<N extends UrlRoute>(name: N, ...args: RouteArgs<N>): string {
  const { path, input } = split(webRoutes[name], args);
  return path + routeQuery(isObject(input) ? input : undefined);
}

type Api = { readonly [N in CallableRoute]: (...args: RouteArgs<N>) => Promise<RouteResult<N>> };

const isCallable = (name: RouteName): name is CallableRoute => webRoutes[name].input !== 'sse' && webRoutes[name].input !== 'raw';

/**
 * `call` bound to each route's name: `api.send(groupId, body)`. Object.fromEntries cannot carry
 * a type per key, so the object is asserted once here; each entry is exactly `call(name, ...)`.
 */
export const api = Object.fromEntries(
  (Object.keys(webRoutes) as RouteName[]).filter(isCallable).map((name) => [name, (...args: readonly unknown[]) => invoke(webRoutes[name], args)]),
) as Api;

function invoke<T>(route: RouteSpec, args: readonly unknown[]): Promise<T> {
  const { path, input, rest } = split(route, args);
  switch (route.input) {
    case 'query':
      return request(route.method, path + routeQuery(isObject(input) ? input : undefined), writes(route) ? '{}' : undefined);
    case 'form':
      return request(route.method, path, uploadForm(isObject(input) ? input : {}, rest.filter((f) => f instanceof File)));
    default:
      return request(route.method, path, writes(route) ? JSON.stringify(input ?? {}) : undefined);
  }
}

/** The multipart body of the upload routes (`to` and `refs` as JSON lists), then the files. */
export function uploadForm(fields: Partial<UploadFields<'send_upload'> & UploadFields<'reply_upload'>>, files: readonly File[]): FormData {
  const form = new FormData();
  form.set('text', fields.text ?? '');
  if (fields.to && fields.to.length > 0) form.set('to_json', JSON.stringify(fields.to));
  if (fields.refs && fields.refs.length > 0) form.set('refs_json', JSON.stringify(fields.refs));
  for (const key of ['message_mode', 'client_id', 'insight', 'path', 'reply_to'] as const) {
    const value = fields[key];
    if (value) form.set(key, value);
  }
  for (const file of files) form.append('files', file, file.name);
  return form;
}

/** POST and PUT always carry a JSON body (`{}` when the route takes none), as the Web expects. */
const writes = (route: RouteSpec) => route.method === 'POST' || route.method === 'PUT';

function split(route: RouteSpec, args: readonly unknown[]): { path: string; input: unknown; rest: readonly unknown[] } {
  const count = pathParamNames(route.path).length;
  return { path: routePath(route.path, args.slice(0, count).map(String)), input: args[count], rest: args.slice(count + 1).flat() };
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
