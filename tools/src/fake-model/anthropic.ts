import type { ServerResponse } from 'node:http';
import { type ModelStep, textChunks, toolInput } from './script.js';
import { sleep, startSse, writeSse } from './sse.js';

// The Anthropic Messages API as Claude Code streams it: message_start, one content block per
// text or tool_use, message_delta with the stop reason, message_stop.

export interface RenderContext {
  model: string;
  id: string;
  /** Aborted when the client goes away or the server closes; a hanging turn waits on it. */
  signal: AbortSignal;
}

const usage = (output: number) => ({ input_tokens: 10, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });

export async function streamAnthropic(res: ServerResponse, step: ModelStep, ctx: RenderContext): Promise<void> {
  startSse(res);
  const send = (data: { type: string } & Record<string, unknown>) => writeSse(res, data, data.type);
  if ('delayMs' in step && step.delayMs) await sleep(step.delayMs, ctx.signal);
  send({
    type: 'message_start',
    message: { id: ctx.id, type: 'message', role: 'assistant', model: ctx.model, content: [], stop_reason: null, stop_sequence: null, usage: usage(1) },
  });
  let index = 0;
  const chunks = textChunks(step);
  if (chunks.length > 0) {
    send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const text of chunks) send({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    if (step.kind === 'hang') {
      await waitForAbort(ctx.signal);
      return;
    }
    send({ type: 'content_block_stop', index });
    index += 1;
  }
  if (step.kind === 'hang') {
    send({ type: 'ping' });
    await waitForAbort(ctx.signal);
    return;
  }
  if (step.kind === 'tool') {
    send({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${ctx.id}`, name: step.name, input: {} } });
    send({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(toolInput(step)) } });
    send({ type: 'content_block_stop', index });
  }
  send({ type: 'message_delta', delta: { stop_reason: step.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
  send({ type: 'message_stop' });
  res.end();
}

/** A non-streaming answer (side requests made with `stream: false`). */
export function anthropicMessage(text: string, ctx: Omit<RenderContext, 'signal'>): unknown {
  return {
    id: ctx.id,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: usage(1),
  };
}

export const waitForAbort = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
