import { ManagedControlError } from '../runtime-adapter.js';
import type { McpServerElicitationRequestParams } from './generated/v2/McpServerElicitationRequestParams.js';
import type { McpServerElicitationRequestResponse } from './generated/v2/McpServerElicitationRequestResponse.js';
import type { McpElicitationPrimitiveSchema } from './generated/v2/McpElicitationPrimitiveSchema.js';
import type { McpElicitationSchema } from './generated/v2/McpElicitationSchema.js';

// An MCP server's elicitation (`mcpServer/elicitation/request`: a tool asks the person for a form
// or to visit a URL) as a CCCC interaction (spec §8.9). A person answers it with
// `{ action: "accept" | "decline" | "cancel", content? }`. Pure: the session owns the pending
// request and the JSON-RPC id.

export const CODEX_ELICITATION_METHOD = 'mcpServer/elicitation/request';

/** Pending-request kind, answered through `headless_control` action `interaction`. */
export const ELICITATION_KIND = 'elicitation';

const MODES = new Set(['form', 'openai/form', 'openaiForm', 'url']);

/** The request, or null when its params are not a usable elicitation. */
export function elicitationOf(params: unknown): McpServerElicitationRequestParams | null {
  const p = (params ?? {}) as Partial<Record<string, unknown>>;
  if (typeof p.threadId !== 'string' || typeof p.serverName !== 'string' || typeof p.message !== 'string') return null;
  if (typeof p.mode !== 'string' || !MODES.has(p.mode)) return null;
  if (p.mode === 'url' ? typeof p.url !== 'string' : typeof p.requestedSchema !== 'object' || p.requestedSchema === null) return null;
  return p as unknown as McpServerElicitationRequestParams;
}

/** What a person reviews: who asks, what, and the form (or URL); never the server's `_meta`. */
export function elicitationSummary(request: McpServerElicitationRequestParams): Record<string, unknown> {
  const base = { server_name: request.serverName, mode: request.mode, message: request.message };
  return request.mode === 'url' ? { ...base, url: request.url } : { ...base, requested_schema: request.requestedSchema };
}

const invalid = (message: string) => new ManagedControlError('invalid_response', message);

/** The reply that releases an elicitation nobody will answer (its turn is cancelled). */
export const ELICITATION_CANCELLED: McpServerElicitationRequestResponse = { action: 'cancel', content: null, _meta: null };

/**
 * The reply for a person's `response`. Only `accept` carries content: for a typed form, an
 * object with every required field, no unknown field, each value of its field's type; for the
 * openai forms (schema not typed by the protocol) any object; for a URL, none.
 * Throws `invalid_response` and sends nothing otherwise.
 */
export function elicitationResponse(request: McpServerElicitationRequestParams, response: unknown): McpServerElicitationRequestResponse {
  if (typeof response !== 'object' || response === null || Array.isArray(response)) throw invalid('response must be an object { action, content? }');
  const { action, content } = response as { action?: unknown; content?: unknown };
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') throw invalid('response.action must be accept, decline or cancel');
  const hasContent = content !== undefined && content !== null;
  if (action !== 'accept' || request.mode === 'url') {
    if (hasContent) throw invalid(action === 'accept' ? 'a URL elicitation takes no content' : `${action} takes no content`);
    return { action, content: null, _meta: null };
  }
  if (!hasContent || typeof content !== 'object' || Array.isArray(content)) throw invalid('accept needs response.content, an object');
  if (request.mode === 'form') checkForm(request.requestedSchema, content as Record<string, unknown>);
  return { action, content: content as McpServerElicitationRequestResponse['content'], _meta: null };
}

function checkForm(schema: McpElicitationSchema, content: Record<string, unknown>): void {
  for (const key of Object.keys(content)) if (!schema.properties[key]) throw invalid(`no field ${JSON.stringify(key)} in the form`);
  for (const key of schema.required ?? []) if (content[key] === undefined) throw invalid(`field ${JSON.stringify(key)} is required`);
  for (const [key, value] of Object.entries(content)) {
    const problem = fieldProblem(schema.properties[key]!, value);
    if (problem) throw invalid(`field ${JSON.stringify(key)} ${problem}`);
  }
}

/** Why `value` does not fit the field, or null. */
function fieldProblem(field: McpElicitationPrimitiveSchema, value: unknown): string | null {
  const f = field as Record<string, unknown>;
  switch (f.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'takes true or false';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'takes a number';
      if (f.type === 'integer' && !Number.isInteger(value)) return 'takes an integer';
      if (typeof f.minimum === 'number' && value < f.minimum) return `is below ${f.minimum}`;
      if (typeof f.maximum === 'number' && value > f.maximum) return `is above ${f.maximum}`;
      return null;
    }
    case 'string': {
      if (typeof value !== 'string') return 'takes a string';
      const allowed = choices(f.enum, f.oneOf);
      if (allowed && !allowed.includes(value)) return 'takes one of its options';
      if (typeof f.minLength === 'number' && value.length < f.minLength) return `is shorter than ${f.minLength}`;
      if (typeof f.maxLength === 'number' && value.length > f.maxLength) return `is longer than ${f.maxLength}`;
      return null;
    }
    case 'array': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return 'takes a list of strings';
      const items = (f.items ?? {}) as Record<string, unknown>;
      const allowed = choices(items.enum, items.anyOf);
      if (allowed && !value.every((v) => allowed.includes(v as string))) return 'takes only its options';
      if (f.minItems !== undefined && value.length < Number(f.minItems)) return `takes at least ${Number(f.minItems)}`;
      if (f.maxItems !== undefined && value.length > Number(f.maxItems)) return `takes at most ${Number(f.maxItems)}`;
      return null;
    }
    default:
      return 'has a type this client cannot check';
  }
}

function choices(plain: unknown, titled: unknown): string[] | null {
  if (Array.isArray(plain)) return plain.filter((v): v is string => typeof v === 'string');
  if (Array.isArray(titled)) return titled.map((o) => (o as { const?: unknown }).const).filter((v): v is string => typeof v === 'string');
  return null;
}
