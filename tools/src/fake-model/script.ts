import type { ModelStep, ToolInput } from './types.js';

export type { ModelStep, ToolInput } from './types.js';

export const reply = (text: string, delayMs?: number): ModelStep => ({ kind: 'text', text, delayMs });
export const thinkThenReply = (delayMs: number, text: string): ModelStep => ({ kind: 'text', text, delayMs });
export const callTool = (name: string, input: ToolInput, text?: string): ModelStep => ({
  kind: 'tool',
  name,
  input,
  text,
});
/** A `Bash` call; in a default-permission agent it waits on the permission prompt. */
export const callBash = (command: string, description = 'Run a command'): ModelStep =>
  callTool('Bash', { command, description });
/** A call of one of the cccc MCP tools as Claude Code names them (`mcp__<server>__<tool>`). */
/** A call of a tool the Responses-API agent (codex) lists inside a namespace, e.g. an MCP server's `mcp__<server>`. */
export const callNamespacedTool = (namespace: string, name: string, input: ToolInput): ModelStep => ({ kind: 'tool', name, input, namespace });
export const callMcpTool = (tool: string, input: ToolInput, server = 'cccc'): ModelStep => callTool(`mcp__${server}__${tool}`, input);
/**
 * Claude Code lists MCP tools as deferred (names only): a model loads their schemas with
 * ToolSearch `select:<name>` before it can call them.
 */
export const loadDeferredTool = (tool: string, options: { server?: string; delayMs?: number } = {}): ModelStep => ({
  kind: 'tool',
  name: 'ToolSearch',
  input: { query: `select:mcp__${options.server ?? 'cccc'}__${tool}`, max_results: 1 },
  delayMs: options.delayMs,
});
export const flood = (lines: number, lineLength = 100): ModelStep => ({ kind: 'flood', lines, lineLength });
export const hang = (text?: string): ModelStep => ({ kind: 'hang', text });

export const SIDE_REQUEST_TEXT = 'ok';
export const SCRIPT_EXHAUSTED_TEXT = 'fake-model: the script has no more steps';

/** The chunks a step's text streams as: a flood in line-sized deltas, others in a few pieces. */
export function textChunks(step: ModelStep): string[] {
  if (step.kind === 'flood') {
    return Array.from({ length: step.lines }, (_, i) => {
      const head = `flood line ${i + 1} `;
      return `${head}${'x'.repeat(Math.max(0, step.lineLength - head.length))}\n`;
    });
  }
  const text = step.text ?? '';
  if (text.length === 0) return [];
  const cut = Math.ceil(text.length / 2);
  return text.length > 8 ? [text.slice(0, cut), text.slice(cut)] : [text];
}

export class ModelScript {
  private next = 0;
  constructor(private readonly steps: readonly ModelStep[]) {}

  take(): ModelStep {
    const step = this.steps[this.next];
    if (step === undefined) return { kind: 'text', text: SCRIPT_EXHAUSTED_TEXT };
    this.next += 1;
    return step;
  }

  get remaining(): number {
    return this.steps.length - this.next;
  }
}

/** A tool step's input once resolved (the server resolves request-derived inputs before rendering). */
export function toolInput(step: Extract<ModelStep, { kind: 'tool' }>): Record<string, unknown> {
  if (typeof step.input === 'function') throw new Error('fake-model: a request-derived tool input was not resolved');
  return step.input;
}
