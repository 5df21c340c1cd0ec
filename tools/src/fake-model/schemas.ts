import { z } from 'zod';

// Only the parts of each request that the fake model reads or that tests assert on; every
// object stays loose so a newer CLI's extra fields pass through into the recording.

const textBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const anthropicToolResult = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  is_error: z.boolean().optional(),
});
const anthropicBlock = z.union([textBlock, anthropicToolResult, z.looseObject({ type: z.string() })]);

export const anthropicMessagesRequest = z.looseObject({
  model: z.string(),
  messages: z.array(
    // Claude Code 2.1 also sends `system` role entries inside `messages`.
    z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(anthropicBlock)]) }),
  ),
  system: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  stream: z.boolean().optional(),
  max_tokens: z.number().optional(),
});
export type AnthropicMessagesRequest = z.infer<typeof anthropicMessagesRequest>;

const responsesContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const responsesInputItem = z.union([
  z.looseObject({
    type: z.literal('message').optional(),
    role: z.string(),
    content: z.union([z.string(), z.array(responsesContentPart)]),
  }),
  z.looseObject({ type: z.literal('function_call_output'), call_id: z.string(), output: z.unknown() }),
  z.looseObject({ type: z.string() }),
]);

export const openaiResponsesRequest = z.looseObject({
  model: z.string(),
  input: z.union([z.string(), z.array(responsesInputItem)]),
  instructions: z.string().optional(),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  stream: z.boolean().optional(),
});
export type OpenaiResponsesRequest = z.infer<typeof openaiResponsesRequest>;

export const chatCompletionsRequest = z.looseObject({
  model: z.string(),
  messages: z.array(
    z.looseObject({
      role: z.string(),
      content: z.union([z.string(), z.array(responsesContentPart), z.null()]).optional(),
    }),
  ),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  stream: z.boolean().optional(),
});
export type ChatCompletionsRequest = z.infer<typeof chatCompletionsRequest>;
