import { ToolFailure } from './daemon-port.js';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A success: the op's receipt as structuredContent (mirrored as JSON text for text-only clients). */
export function toolSuccess(structured: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A failure keeps code, message and details in structuredContent.error; flattening them into
 * text alone would lose what the caller needs to recover (§8.6).
 */
export function toolError(error: unknown): ToolResult {
  const failure =
    error instanceof ToolFailure ? error : new ToolFailure('internal_error', error instanceof Error ? error.message : String(error));
  const structured = { error: { code: failure.code, message: failure.message, details: failure.details } };
  return { content: [{ type: 'text', text: `${failure.code}: ${failure.message}` }], structuredContent: structured, isError: true };
}
