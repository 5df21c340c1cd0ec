import { z } from 'zod';
import { DaemonRequestV1, errorResponse, okResponse, type DaemonResponseV1 } from './envelope.js';
import { ErrorCodes, IpcError, isIpcError } from './errors.js';
import { opCatalog, type OpArgs, type OpName, type OpResult } from './ops/catalog.js';
import type { OpSpec } from './ops/define.js';
import { PreserializedResult } from './preserialized.js';
import { isStreamUpgrade, type StreamUpgrade, type UpgradedConnection } from './upgrade.js';
import { jsonShapeViolation } from './json-limits.js';

export interface RequestContext {
  readonly op: OpName;
}

export type OpHandler<K extends OpName> = (
  args: OpArgs<K>,
  context: RequestContext,
) => HandlerOutcome<K> | Promise<HandlerOutcome<K>>;

/** A result, the same result already serialized, or a stream upgrade answered with it first. */
type HandlerOutcome<K extends OpName> = OpResult<K> | PreserializedResult<OpResult<K>> | StreamUpgrade<OpResult<K>>;

export interface Dispatched {
  readonly response: DaemonResponseV1;
  /** Present when the op upgrades the connection after `response` is written. */
  readonly upgrade?: (connection: UpgradedConnection) => void;
}

export interface RouterOptions {
  /**
   * Turns a domain error into a wire error, in one place. Return undefined for errors that are
   * not domain errors; they become `internal_error`.
   */
  readonly mapError?: (error: unknown) => IpcError | undefined;
  /** Called with the cause of every `internal_error`; the client never sees it. */
  readonly onInternalError?: (error: unknown, op: string) => void;
  /** Check handler results against the catalog (tests and development). */
  readonly validateResults?: boolean;
}

interface Route {
  readonly spec: OpSpec;
  /** The handler, called with what `spec.args` parsed the request's args into. */
  readonly call: (parsedArgs: unknown, context: RequestContext) => ReturnType<OpHandler<OpName>>;
  /** Read from the args schema at the op's first request, which is when that schema is built. */
  facts?: RouteFacts;
}

interface RouteFacts {
  readonly requiresGroupId: boolean;
  readonly requiresActorId: boolean;
  /**
   * The op's args schema turns `{}` into `{}`: a request without args (ping, the SDKs' health
   * check on a fresh connection) then skips the schema, whose answer for `{}` never changes.
   */
  readonly emptyArgsPass: boolean;
}

function isEmptyObject(value: Record<string, unknown>): boolean {
  for (const _ in value) return false;
  return true;
}

function passesEmptyArgs(spec: OpSpec): boolean {
  const parsed = spec.args.safeParse({});
  return parsed.success && typeof parsed.data === 'object' && parsed.data !== null && Object.keys(parsed.data).length === 0;
}

function factsOf(spec: OpSpec): RouteFacts {
  return { requiresGroupId: requiresKey(spec, 'group_id'), requiresActorId: requiresKey(spec, 'actor_id'), emptyArgsPass: passesEmptyArgs(spec) };
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function requiresKey(spec: OpSpec, key: string): boolean {
  const shape = (spec.args as unknown as { shape?: Record<string, z.ZodType> }).shape;
  const field = shape?.[key];
  return field !== undefined && !field.safeParse(undefined).success;
}

function fieldOf(error: z.ZodError): string {
  const path = error.issues[0]?.path ?? [];
  if (path.length > 0) return path.map(String).join('.');
  const issue = error.issues[0] as { keys?: string[] } | undefined;
  return issue?.keys?.[0] ?? '';
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid value';
  const field = fieldOf(error);
  return field ? `${field}: ${issue.message}` : issue.message;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * The common, well-formed envelope accepted without running its zod schema (a measurable share
 * of a ping on a fresh connection): only a shape `DaemonRequestV1` certainly accepts as it is,
 * `{v: 1, op: <non-empty string>, args?: <plain object>}` and nothing else; anything else
 * (including every malformed request) goes through the schema and its error wording.
 * router.test.ts holds the two against each other.
 */
export function plainEnvelope(value: object): { success: true; data: DaemonRequestV1 } | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const key in value) if (key !== 'v' && key !== 'op' && key !== 'args') return undefined;
  const { v, op, args } = value;
  if (v !== 1 || typeof op !== 'string' || op.length === 0) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  return { success: true, data: value as DaemonRequestV1 };
}

/**
 * Validates request lines against the op catalog and dispatches them to registered handlers.
 * Transport-free: the socket server and the in-memory loopback both feed it text lines.
 */
export class OpRouter {
  private readonly routes = new Map<string, Route>();

  constructor(private readonly options: RouterOptions = {}) {}

  register<K extends OpName>(op: K, handler: OpHandler<K>): this {
    const spec = opCatalog[op] as OpSpec | undefined;
    if (!spec) throw new Error(`op ${op} is not in the catalog`);
    if (this.routes.has(op)) throw new Error(`op ${op} is already registered`);
    this.routes.set(op, {
      spec,
      // `run` passes only the output of this op's own args schema, which is `OpArgs<K>`.
      call: (parsedArgs, context) => handler(parsedArgs as OpArgs<K>, context),
    });
    return this;
  }

  get ops(): string[] {
    return [...this.routes.keys()];
  }

  /** How many ops have a handler. Ops are only ever added, so this also versions the set. */
  get size(): number {
    return this.routes.size;
  }

  /** Whether `op` has a handler (without listing them all, as `ops` does). */
  serves(op: string): boolean {
    return this.routes.has(op);
  }

  /** Handle one request line (without its newline). Never throws. */
  async dispatchLine(text: string): Promise<Dispatched> {
    const shape = jsonShapeViolation(text);
    if (shape) {
      const what = shape.limit === 'json_depth' ? `nests deeper than ${shape.max} levels` : `has more than ${shape.max} values`;
      return { response: errorResponse(ErrorCodes.invalidRequest, `request line ${what}`, { ...shape }) };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { response: errorResponse(ErrorCodes.invalidRequest, 'request line is not valid JSON') };
    }
    return this.dispatch(parsed);
  }

  /** Handle one already-parsed request value. Never throws. */
  async dispatch(value: unknown): Promise<Dispatched> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { response: errorResponse(ErrorCodes.invalidRequest, 'request must be a JSON object') };
    }
    const envelope = plainEnvelope(value) ?? DaemonRequestV1.safeParse(value);
    if (!envelope.success) {
      const field = fieldOf(envelope.error);
      return {
        response: errorResponse(ErrorCodes.invalidRequest, `invalid request envelope: ${describe(envelope.error)}`, {
          field,
        }),
      };
    }
    const { op } = envelope.data;
    const route = this.routes.get(op);
    if (!route) return { response: errorResponse(ErrorCodes.unknownOp, `unknown op: ${op}`, { op }) };

    const rawArgs = envelope.data.args ?? {};
    const rejected = route.spec.rejectedArgs;
    if (rejected) {
      const present = rejected.keys.filter((k) => Object.hasOwn(rawArgs, k));
      if (present.length > 0) {
        return {
          response: errorResponse(rejected.code, `unsupported fields: ${present.join(', ')}`, { fields: present }),
        };
      }
    }
    const facts = (route.facts ??= factsOf(route.spec));
    if (facts.requiresGroupId && isBlank(rawArgs.group_id)) {
      return { response: errorResponse(ErrorCodes.missingGroupId, 'missing group_id') };
    }
    if (facts.requiresActorId && isBlank(rawArgs.actor_id)) {
      return { response: errorResponse(ErrorCodes.missingActorId, 'missing actor_id') };
    }
    if (facts.emptyArgsPass && isEmptyObject(rawArgs)) return this.run(route, op as OpName, {});
    const args = route.spec.args.safeParse(rawArgs);
    if (!args.success) {
      return {
        response: errorResponse(ErrorCodes.invalidRequest, `invalid args: ${describe(args.error)}`, {
          field: fieldOf(args.error),
        }),
      };
    }
    return this.run(route, op as OpName, args.data);
  }

  private async run(route: Route, op: OpName, args: unknown): Promise<Dispatched> {
    try {
      const outcome = await route.call(args, { op });
      if (isStreamUpgrade(outcome)) {
        return { response: okResponse(this.checked(route, op, outcome.result)), upgrade: outcome.start };
      }
      return { response: okResponse(this.checked(route, op, outcome)) };
    } catch (error) {
      return { response: this.toErrorResponse(error, op) };
    }
  }

  private checked(route: Route, op: string, result: unknown): Record<string, unknown> {
    if (this.options.validateResults) {
      const check = route.spec.result.safeParse(result instanceof PreserializedResult ? result.value : result);
      if (!check.success) throw new Error(`handler for ${op} returned an invalid result: ${describe(check.error)}`);
    }
    return result as Record<string, unknown>;
  }

  private toErrorResponse(error: unknown, op: string): DaemonResponseV1 {
    const wire = isIpcError(error) ? error : this.options.mapError?.(error);
    if (wire) return errorResponse(wire.code, wire.message, wire.details);
    this.options.onInternalError?.(error, op);
    return errorResponse(ErrorCodes.internalError, 'internal error');
  }
}
