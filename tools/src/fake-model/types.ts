// The fake model's script steps and the requests it records refer to each other, so they share
// one module (no import circle).

export type ModelApi = 'anthropic' | 'responses' | 'chat' | 'other';

export interface RecordedRequest {
  seq: number;
  api: ModelApi;
  method: string;
  /** The path without the query (`/v1/messages`). */
  path: string;
  /** The query string with its `?`, or ''. */
  query: string;
  /** Request headers; credentials are replaced by `<redacted>`. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /** A main request carries the agent's tools and consumed a script step. */
  main: boolean;
  /** The step answered, for main requests. */
  step?: ModelStep;
  /** `performance.now()` when the request arrived (benches time the agent's loop with it). */
  receivedAtMs?: number;
}

/** A tool input, fixed or read from the request being answered (e.g. an event id in the prompt). */
export type ToolInput = Record<string, unknown> | ((request: RecordedRequest) => Record<string, unknown>);

/**
 * What the fake model answers to each main request (one that carries the agent's tools), in
 * order. Side requests a CLI makes on its own (titles, quota probes: no tools) get a short text
 * and do not consume a step.
 */
export type ModelStep =
  /** A text reply, optionally after a delay (a "thinking" model). */
  | { kind: 'text'; text: string; delayMs?: number }
  /** A tool call: the agent runs it (or asks permission) and calls again with the result. */
  | { kind: 'tool'; name: string; input: ToolInput; text?: string; delayMs?: number; namespace?: string }
  /** A long reply: `lines` lines of `lineLength` characters, streamed in many deltas. */
  | { kind: 'flood'; lines: number; lineLength: number }
  /** A turn that starts and never ends: the response stays open until the server closes. */
  | { kind: 'hang'; text?: string };
