import type { z } from 'zod';
import { anthropicMessagesRequest, chatCompletionsRequest, openaiResponsesRequest } from './schemas.js';
import type { RecordedRequest } from './types.js';

export type { ModelApi, RecordedRequest } from './types.js';

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'proxy-authorization']);

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '<redacted>' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const textsOf = (content: unknown): string[] => {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return content === undefined || content === null ? [] : [JSON.stringify(content)];
  return content.flatMap((part: unknown) => {
    if (typeof part === 'string') return [part];
    if (part && typeof part === 'object' && 'text' in part && typeof part.text === 'string') return [part.text];
    return [];
  });
};

/** A body the schema rejects is an error naming the field: a silent [] would read as "not sent". */
function parseBody<T>(schema: z.ZodType<T>, request: Pick<RecordedRequest, 'api' | 'body'>): T {
  const parsed = schema.safeParse(request.body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`fake-model: a ${request.api} request body does not match its schema at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
}

/**
 * Every piece of user input in one request's whole message list, oldest first: user message
 * texts and tool results (Anthropic `tool_result`, Responses `function_call_output`, chat
 * `tool` messages). Assistant output and system prompts are left out.
 */
export function userInputsOf(request: Pick<RecordedRequest, 'api' | 'body'>, options: { toolResults?: boolean } = {}): string[] {
  const toolResults = options.toolResults ?? true;
  if (request.api === 'anthropic') {
    const parsed = parseBody(anthropicMessagesRequest, request);
    return parsed.messages
      .filter((message) => message.role === 'user')
      .flatMap((message) => {
        if (typeof message.content === 'string') return [message.content];
        return message.content.flatMap((block) => {
          if (block.type === 'text' && typeof block.text === 'string') return [block.text];
          if (block.type === 'tool_result') return toolResults ? textsOf(block.content) : [];
          return [];
        });
      });
  }
  if (request.api === 'responses') {
    const parsed = parseBody(openaiResponsesRequest, request);
    if (typeof parsed.input === 'string') return [parsed.input];
    return parsed.input.flatMap((item) => {
      if (item.type === 'function_call_output') return toolResults ? textsOf(item.output) : [];
      if ('role' in item && item.role === 'user') return textsOf(item.content);
      return [];
    });
  }
  if (request.api === 'chat') {
    const parsed = parseBody(chatCompletionsRequest, request);
    return parsed.messages.filter((m) => m.role === 'user' || (toolResults && m.role === 'tool')).flatMap((m) => textsOf(m.content));
  }
  return [];
}

export function occurrences(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/**
 * How many times `text` reached the model as the user's input: for each main request, the
 * occurrences in the user messages of its whole message list (each request re-sends the
 * conversation so far), and the largest of those. A text submitted twice, in one message or as
 * two turns, counts 2. Tool results are left out unless `includeToolResults`: a tool may quote
 * what it acts on (cccc_message_reply's result carries the replied-to text as `quote_text`).
 */
export function countOccurrences(requests: readonly RecordedRequest[], text: string, options: { includeToolResults?: boolean } = {}): number {
  let most = 0;
  for (const request of requests) {
    if (!request.main) continue;
    const inputs = userInputsOf(request, { toolResults: options.includeToolResults ?? false });
    const count = inputs.reduce((sum, input) => sum + occurrences(input, text), 0);
    most = Math.max(most, count);
  }
  return most;
}
