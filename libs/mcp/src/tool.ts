import { z } from 'zod';
import type { DaemonPort } from './daemon-port.js';
import { ToolFailure } from './daemon-port.js';
import type { McpIdentity } from './identity.js';

export interface ToolContext {
  readonly identity: McpIdentity;
  readonly daemon: DaemonPort;
}

/** MCP tool annotations (hints). readOnlyHint is true only when no exposed action writes. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint: boolean;
}

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly input: S;
  readonly annotations: ToolAnnotations;
  /** Only the foreman sees and may call it (when the daemon cannot say what the actor has enabled). */
  readonly foremanOnly?: boolean;
  /** Only this actor (e.g. the hidden `voice-secretary`) sees and may call it. */
  readonly onlyFor?: string;
  /**
   * The built-in capability pack that exposes this tool (spec §8.3); tools without one are base
   * tools every actor sees. The daemon's capability_state decides what an actor has enabled.
   */
  readonly pack?: string;
  /**
   * Principal keys the caller may not pass. Every tool refuses `by` and `group_id`; most also
   * refuse `actor_id` (cccc_actor uses it for the target actor, never for the caller).
   */
  readonly reservedKeys?: readonly string[];
  /** Refusals that must name their reason before generic schema validation (e.g. cccc_file send). */
  preflight?(raw: Record<string, unknown>): void;
  run(ctx: ToolContext, args: z.output<S>): Promise<Record<string, unknown>>;
}

/**
 * A tool as the catalog stores it: its schema type erased, its typed `run` kept inside `prepare`,
 * which parses the raw arguments with the tool's own schema.
 */
export type Tool = Omit<ToolDef, 'run'> & {
  /** Validates `raw`; the returned function runs the tool with the parsed, typed arguments. */
  prepare(raw: unknown): (ctx: ToolContext) => Promise<Record<string, unknown>>;
};

export const IDENTITY_KEYS = ['by', 'group_id', 'actor_id'] as const;

export function defineTool<S extends z.ZodObject>(def: ToolDef<S>): Tool {
  const { run, ...meta } = def;
  return {
    ...meta,
    prepare: (raw) => {
      const args = parseToolArgs(def, raw);
      return (ctx) => run(ctx, args);
    },
  };
}

/**
 * `unknown` arguments → typed args. Identity keys are refused by name before the schema runs so
 * the answer says why; other unknown keys fail the strict schema with the field named.
 */
export function parseToolArgs<S extends z.ZodObject>(tool: Pick<ToolDef<S>, 'name' | 'input' | 'reservedKeys' | 'preflight'>, raw: unknown): z.output<S> {
  const args = raw ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new ToolFailure('invalid_request', 'arguments must be an object', {});
  const reserved = tool.reservedKeys ?? IDENTITY_KEYS;
  for (const key of reserved) {
    if (Object.hasOwn(args, key)) {
      throw new ToolFailure('identity_override_rejected', `${key} is not a ${tool.name} argument: this server always acts as its own actor`, {
        field: key,
        delivery_state: 'not_sent',
        new_side_effects: false,
      });
    }
  }
  tool.preflight?.(args as Record<string, unknown>);
  // Strict for the unknown-key refusal; the strict schema's output is `S`'s output.
  const parsed = tool.input.strict().safeParse(args) as z.ZodSafeParseResult<z.output<S>>;
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : issue.path.join('.');
    throw new ToolFailure('invalid_request', `${tool.name}: ${field ? `${field}: ` : ''}${issue.message}`, { field });
  }
  return parsed.data;
}

/** The JSON Schema listed by tools/list (strict: unknown keys are refused, so say so). */
export function toolInputJsonSchema(tool: Pick<Tool, 'input'>): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input.strict(), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
