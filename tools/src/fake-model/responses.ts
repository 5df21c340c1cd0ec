import type { ServerResponse } from 'node:http';
import { type RenderContext, waitForAbort } from './anthropic.js';
import { type ModelStep, textChunks, toolInput } from './script.js';
import { sleep, startSse, writeSse } from './sse.js';

// The OpenAI Responses API as Codex streams it: response.created, output items (a message
// with output_text, or a function_call), response.completed with usage.

export async function streamResponses(res: ServerResponse, step: ModelStep, ctx: RenderContext): Promise<void> {
  startSse(res);
  let sequence = 0;
  const send = (data: { type: string } & Record<string, unknown>) => writeSse(res, { ...data, sequence_number: sequence++ }, data.type);
  const response = { id: ctx.id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: ctx.model };
  if ('delayMs' in step && step.delayMs) await sleep(step.delayMs, ctx.signal);
  send({ type: 'response.created', response: { ...response, status: 'in_progress', output: [] } });
  send({ type: 'response.in_progress', response: { ...response, status: 'in_progress', output: [] } });
  const output: unknown[] = [];
  const chunks = textChunks(step);
  if (chunks.length > 0) {
    const itemId = `msg_${ctx.id}`;
    const at = { item_id: itemId, output_index: output.length, content_index: 0 };
    send({ type: 'response.output_item.added', output_index: at.output_index, item: { type: 'message', id: itemId, status: 'in_progress', role: 'assistant', content: [] } });
    send({ type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of chunks) send({ type: 'response.output_text.delta', ...at, delta });
    if (step.kind === 'hang') {
      await waitForAbort(ctx.signal);
      return;
    }
    const text = chunks.join('');
    const part = { type: 'output_text', text, annotations: [] };
    send({ type: 'response.output_text.done', ...at, text });
    send({ type: 'response.content_part.done', ...at, part });
    const item = { type: 'message', id: itemId, status: 'completed', role: 'assistant', content: [part] };
    send({ type: 'response.output_item.done', output_index: at.output_index, item });
    output.push(item);
  }
  if (step.kind === 'hang') {
    await waitForAbort(ctx.signal);
    return;
  }
  if (step.kind === 'tool') {
    const itemId = `fc_${ctx.id}`;
    const args = JSON.stringify(toolInput(step));
    // A tool of a namespace the agent listed (codex groups each MCP server's tools as `mcp__<server>`).
    const base = { type: 'function_call', id: itemId, call_id: `call_${ctx.id}`, name: step.name, ...(step.namespace ? { namespace: step.namespace } : {}) };
    const outputIndex = output.length;
    send({ type: 'response.output_item.added', output_index: outputIndex, item: { ...base, arguments: '', status: 'in_progress' } });
    send({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: outputIndex, delta: args });
    send({ type: 'response.function_call_arguments.done', item_id: itemId, output_index: outputIndex, arguments: args });
    const item = { ...base, arguments: args, status: 'completed' };
    send({ type: 'response.output_item.done', output_index: outputIndex, item });
    output.push(item);
  }
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  send({ type: 'response.completed', response: { ...response, status: 'completed', output, usage } });
  res.end();
}
