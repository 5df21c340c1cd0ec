import { opCatalog, type OpArgsInput, type OpName, type OpSpec } from '@cccc/ipc-protocol';
import { z } from 'zod';
import { parseWith } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { pathParamNames, webRoutes, type OpRouteName } from './route-map.js';

// The Web's HTTP bodies, derived from the op catalog: a route's body schema is its op's args
// less what the route fills in, and whatever a route assembles is checked against the op's own
// schema before it is sent, so a handler's args are typed by the op without a cast.

/** The op args a route fills itself: its path parameters, and `by` where the op has it. */
export function filledArgs(name: OpRouteName): string[] {
  const route = webRoutes[name];
  const shape = opCatalog[route.op].args.shape;
  return [...pathParamNames(route.path), ...('by' in shape ? ['by'] : [])];
}

/**
 * An object schema without `keys`, keeping its unknown-key policy (strip, strict or loose).
 * Refinements span the whole object (send's src_group_id / src_event_id pair) and may name an
 * omitted key (zod's own `.omit` refuses refined objects), so they are left to the op's own
 * schema, which checks the assembled args.
 */
export function omitKeys(schema: z.ZodObject, keys: readonly string[]): z.ZodObject {
  const rest = z.object(Object.fromEntries(Object.entries(schema.shape).filter(([key]) => !keys.includes(key))));
  // strict objects catch all with never, loose ones with unknown; a stripping object has none.
  const { catchall } = schema.def;
  return catchall ? rest.catchall(catchall) : rest;
}

/** The JSON body a `body` route accepts: its op's args less what the route fills in. */
export function bodySchemaOf(name: OpRouteName): z.ZodObject {
  return omitKeys(opCatalog[webRoutes[name].op].args, filledArgs(name));
}

/** The JSON body a `patch` route accepts: its op's `patch` arg. */
export function patchSchemaOf(name: OpRouteName): z.ZodType {
  const shape: Readonly<Record<string, z.ZodType>> = opCatalog[webRoutes[name].op].args.shape;
  const patch = shape.patch;
  if (!patch) throw new Error(`route ${name}: op ${webRoutes[name].op} has no patch arg`);
  return patch;
}

/**
 * Legacy fields the op refuses rather than ignores (`priority`, `reply_required`, ...), answered
 * as the daemon's router does: the body schema would strip them, and a client must not believe
 * it asked for something it will not get.
 */
export function refuseRejectedArgs(op: OpName, body: unknown): void {
  const spec: OpSpec = opCatalog[op];
  if (!spec.rejectedArgs || typeof body !== 'object' || body === null) return;
  const present = spec.rejectedArgs.keys.filter((k) => Object.hasOwn(body, k));
  if (present.length > 0) {
    throw new HttpError(400, spec.rejectedArgs.code, `unsupported fields: ${present.join(', ')}`, { fields: present });
  }
}

/** The assembled args pass the op's own schema (refinements included): 400 invalid_request otherwise. */
export function assertOpArgs<K extends OpName>(op: K, args: object): asserts args is OpArgsInput<K> {
  parseWith(opCatalog[op].args, args, 'args');
}
