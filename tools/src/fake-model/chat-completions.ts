import type { ServerResponse } from 'node:http';
import { type RenderContext, waitForAbort } from './anthropic.js';
import { type ModelStep, textChunks, toolInput } from './script.js';
import { sleep, startSse, writeSse } from './sse.js';

// OpenAI-compatible chat completions (what opencode's custom provider calls): `data:` chunks
// with choices[0].delta, a final chunk with finish_reason and usage, then `data: [DONE]`.

export async function streamChatCompletions(res: ServerResponse, step: ModelStep, ctx: RenderContext): Promise<void> {
  startSse(res);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    writeSse(res, {
      id: ctx.id,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: ctx.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  if ('delayMs' in step && step.delayMs) await sleep(step.delayMs, ctx.signal);
  chunk({ role: 'assistant', content: '' });
  for (const content of textChunks(step)) chunk({ content });
  if (step.kind === 'hang') {
    await waitForAbort(ctx.signal);
    return;
  }
  if (step.kind === 'tool') {
    chunk({
      tool_calls: [{ index: 0, id: `call_${ctx.id}`, type: 'function', function: { name: step.name, arguments: JSON.stringify(toolInput(step)) } }],
    });
  }
  chunk({}, step.kind === 'tool' ? 'tool_calls' : 'stop', { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  writeSse(res, '[DONE]');
  res.end();
}
