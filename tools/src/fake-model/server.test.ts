import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { countOccurrences, userInputsOf } from './recorded.js';
import { callBash, callMcpTool, flood, hang, type ModelStep, reply, SIDE_REQUEST_TEXT, thinkThenReply } from './script.js';
import { type FakeModel, startFakeModel } from './server.js';

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const start = async (...steps: ModelStep[]) => (model = await startFakeModel({ steps }));

interface SseEvent {
  event?: string;
  data: string;
  json: any;
}

/** Reads SSE events until the stream ends, or until `until` returns true for an event. */
async function readSse(response: Response, until?: (event: SseEvent) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  let stop = false;
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      let json: unknown;
      try {
        json = JSON.parse(message.data);
      } catch {
        json = undefined;
      }
      const event = { event: message.event, data: message.data, json };
      events.push(event);
      if (until?.(event)) stop = true;
    },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  while (!stop) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  if (stop) await reader.cancel();
  return events;
}

const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
const anthropicBody = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: 'claude-test',
  max_tokens: 100,
  stream: true,
  tools,
  messages,
  ...extra,
});

const post = (m: FakeModel, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${m.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const anthropicText = (events: SseEvent[]) =>
  events.filter((e) => e.json?.delta?.type === 'text_delta').map((e) => e.json.delta.text).join('');

describe('fake model: Anthropic Messages API', () => {
  it('streams a scripted text reply as a complete turn and records the request without secrets', async () => {
    const m = await start(reply('Hello from the script'));
    const res = await post(m, '/v1/messages?beta=true', anthropicBody([{ role: 'user', content: 'hi there' }]), {
      'x-api-key': 'sk-secret',
      'anthropic-version': '2023-06-01',
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = await readSse(res);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.every((e) => e.json.type === e.event)).toBe(true);
    expect(anthropicText(events)).toBe('Hello from the script');
    expect(events[5]!.json.delta.stop_reason).toBe('end_turn');

    const [recorded] = m.requests;
    expect(recorded).toMatchObject({ api: 'anthropic', method: 'POST', path: '/v1/messages', query: '?beta=true', main: true });
    expect(recorded!.headers['x-api-key']).toBe('<redacted>');
    expect(recorded!.headers['anthropic-version']).toBe('2023-06-01');
    expect(recorded!.body).toMatchObject({ model: 'claude-test', messages: [{ role: 'user', content: 'hi there' }] });
  });

  it('runs a tool_use / tool_result round trip: a Bash call, then the next step answers the result', async () => {
    const m = await start(callBash('echo hi', 'Say hi'), reply('The command printed hi'));
    const first = await readSse(await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: 'run it' }])));
    const toolUse = first.find((e) => e.json.type === 'content_block_start')!.json.content_block;
    expect(toolUse).toMatchObject({ type: 'tool_use', name: 'Bash' });
    const input = first.filter((e) => e.json.delta?.type === 'input_json_delta').map((e) => e.json.delta.partial_json).join('');
    expect(JSON.parse(input)).toEqual({ command: 'echo hi', description: 'Say hi' });
    expect(first.find((e) => e.event === 'message_delta')!.json.delta.stop_reason).toBe('tool_use');

    const history = [
      { role: 'user', content: 'run it' },
      { role: 'assistant', content: [{ type: 'tool_use', id: toolUse.id, name: 'Bash', input: JSON.parse(input) }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'hi\n' }] },
    ];
    const second = await readSse(await post(m, '/v1/messages', anthropicBody(history)));
    expect(anthropicText(second)).toBe('The command printed hi');
    expect(userInputsOf(m.requests[1]!)).toEqual(['run it', 'hi\n']);
    expect(userInputsOf(m.requests[1]!, { toolResults: false })).toEqual(['run it']);
    expect(m.countOccurrences('run it')).toBe(1);
    // A tool result that quotes a text is not a second delivery of it, unless asked for.
    expect(m.countOccurrences('hi\n')).toBe(0);
    expect(m.countOccurrences('hi\n', { includeToolResults: true })).toBe(1);
  });

  it('names MCP tools the way Claude Code does', async () => {
    const m = await start(callMcpTool('cccc_message_reply', { event_id: 'e1', text: 'done' }));
    const events = await readSse(await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: 'reply' }])));
    expect(events.find((e) => e.json.type === 'content_block_start')!.json.content_block.name).toBe('mcp__cccc__cccc_message_reply');
  });

  it('reads a tool input from the request it answers (an event id in the prompt) and records it resolved', async () => {
    const eventIdOf = (request: Parameters<typeof userInputsOf>[0]) => /event_id=(\w+)/.exec(userInputsOf(request).join('\n'))?.[1] ?? 'none';
    const m = await start(callMcpTool('cccc_message_reply', (request) => ({ event_id: eventIdOf(request), text: 'done' })));
    const events = await readSse(await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: '[cccc] user → peer1 [event_id=abc123]: hi' }])));
    const input = events.filter((e) => e.json.delta?.type === 'input_json_delta').map((e) => e.json.delta.partial_json).join('');
    expect(JSON.parse(input)).toEqual({ event_id: 'abc123', text: 'done' });
    expect(m.requests[0]!.step).toMatchObject({ kind: 'tool', name: 'mcp__cccc__cccc_message_reply', input: { event_id: 'abc123' } });
  });

  it('answers side requests (no tools) with a short text without taking a script step', async () => {
    const m = await start(reply('the real answer'));
    const side = await readSse(await post(m, '/v1/messages', { model: 'haiku', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'title?' }] }));
    expect(anthropicText(side)).toBe(SIDE_REQUEST_TEXT);
    const plain = await (await post(m, '/v1/messages', { model: 'haiku', max_tokens: 5, messages: [{ role: 'user', content: 'quota' }] })).json();
    expect(plain).toMatchObject({ type: 'message', content: [{ type: 'text', text: SIDE_REQUEST_TEXT }] });
    const main = await readSse(await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: 'hi' }])));
    expect(anthropicText(main)).toBe('the real answer');
    expect(m.requests.map((r) => r.main)).toEqual([false, false, true]);
  });

  it('delays a thinking reply before its first byte', async () => {
    const m = await start(thinkThenReply(400, 'thought about it'));
    const sent = Date.now();
    const res = await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: 'think' }]));
    const events = await readSse(res);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(380);
    expect(anthropicText(events)).toBe('thought about it');
  });

  it('floods: many long lines in many deltas', async () => {
    const m = await start(flood(2000, 120));
    const text = anthropicText(await readSse(await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: 'flood' }]))));
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2000);
    expect(lines.every((line) => line.length === 120)).toBe(true);
    expect(lines[1999]).toMatch(/^flood line 2000 x+$/);
  });

  it('holds a never-ending turn open until the server closes', async () => {
    const m = await start(hang('working on it'));
    const res = await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: 'go' }]));
    const events: SseEvent[] = [];
    const reading = readSse(res, (e) => {
      events.push(e);
      return false;
    }).then(
      () => 'ended',
      () => 'cut',
    );
    const raced = await Promise.race([reading, new Promise((r) => setTimeout(() => r('still open'), 400))]);
    expect(raced).toBe('still open');
    expect(anthropicText(events)).toBe('working on it');
    expect(events.map((e) => e.event)).not.toContain('message_stop');
    await m.close();
    expect(await reading).toMatch(/ended|cut/);
    expect(events.map((e) => e.event)).not.toContain('message_stop');
  });
});

describe('fake model: OpenAI Responses API (Codex)', () => {
  const body = (input: unknown[]) => ({ model: 'fake-model', stream: true, tools: [{ type: 'function', name: 'exec_command' }], input });

  it('streams a text message item and response.completed with usage', async () => {
    const m = await start(reply('Hello Codex'));
    const events = await readSse(await post(m, '/v1/responses', body([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }])));
    expect(events.map((e) => e.event).filter((name, i, all) => name !== all[i - 1])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.json.delta).join('')).toBe('Hello Codex');
    const completed = events.at(-1)!.json.response;
    expect(completed.status).toBe('completed');
    expect(completed.usage.total_tokens).toBeGreaterThan(0);
    expect(completed.output[0].content[0].text).toBe('Hello Codex');
    expect(m.requests[0]).toMatchObject({ api: 'responses', main: true });
  });

  it('streams a function_call, and counts user input and function_call_output over the whole input list', async () => {
    const m = await start(callTool2(), reply('ran it'));
    const events = await readSse(await post(m, '/v1/responses', body([{ role: 'user', content: 'please run ls' }])));
    const plain = await (await post(m, '/v1/responses', { model: 'fake-model', input: 'side' })).json();
    expect(plain).toMatchObject({ object: 'response', status: 'completed', output: [{ content: [{ text: SIDE_REQUEST_TEXT }] }] });
    const item = events.find((e) => e.event === 'response.output_item.done')!.json.item;
    expect(item).toMatchObject({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'ls' }) });
    await readSse(
      await post(m, '/v1/responses', body([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'please run ls' }] },
        item,
        { type: 'function_call_output', call_id: item.call_id, output: 'a.txt' },
      ])),
    );
    expect(userInputsOf(m.requests[2]!)).toEqual(['please run ls', 'a.txt']);
    expect(m.countOccurrences('please run ls')).toBe(1);
  });

  function callTool2() {
    return { kind: 'tool' as const, name: 'exec_command', input: { cmd: 'ls' } };
  }
});

describe('fake model: chat completions (opencode custom provider)', () => {
  const body = (messages: unknown[]) => ({ model: 'fake-model', stream: true, tools: [{ type: 'function', function: { name: 'bash' } }], messages });

  it('streams data-only chunks, a finish_reason and [DONE]', async () => {
    const m = await start(reply('Hello opencode'), { kind: 'tool', name: 'bash', input: { command: 'ls' } });
    const events = await readSse(await post(m, '/v1/chat/completions', body([{ role: 'user', content: 'hi' }])));
    expect(events.every((e) => e.event === undefined)).toBe(true);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => e.json);
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('Hello opencode');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');

    const plain = await (await post(m, '/v1/chat/completions', { model: 'fake-model', messages: [{ role: 'user', content: 'title?' }] })).json();
    expect(plain).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant', content: SIDE_REQUEST_TEXT }, finish_reason: 'stop' }] });
    const tool = await readSse(await post(m, '/v1/chat/completions', body([{ role: 'user', content: 'list' }])));
    const calls = tool.slice(0, -1).flatMap((e) => e.json.choices[0].delta.tool_calls ?? []);
    expect(calls).toEqual([expect.objectContaining({ type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } })]);
    expect(tool.at(-2)!.json.choices[0].finish_reason).toBe('tool_calls');
  });
});

describe('fake model: other paths and request records', () => {
  it('answers unknown GET and POST paths with {}', async () => {
    const m = await start();
    expect(await (await fetch(`${m.url}/api/hello`)).json()).toEqual({});
    expect(await (await post(m, '/api/event_logging/batch', { events: [] })).json()).toEqual({});
    expect(m.requests.map((r) => [r.method, r.path, r.api, r.main])).toEqual([
      ['GET', '/api/hello', 'other', false],
      ['POST', '/api/event_logging/batch', 'other', false],
    ]);
  });

  it('waitForRequest resolves on a past or a future request and times out with a count', async () => {
    const m = await start(reply('a'), reply('b'));
    await readSse(await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: 'one' }])));
    await expect(m.waitForRequest((r) => r.main)).resolves.toMatchObject({ seq: 1 });
    const future = m.waitForRequest((r) => userInputsOf(r).includes('two'));
    await readSse(await post(m, '/v1/messages', anthropicBody([{ role: 'user', content: 'two' }])));
    await expect(future).resolves.toMatchObject({ seq: 2 });
    await expect(m.waitForRequest(() => false, 50)).rejects.toThrow(/no matching request within 50 ms \(2 seen\)/);
  });

  it('countOccurrences: once across requests that re-send the history is 1; twice in one conversation is 2', () => {
    const req = (seq: number, messages: unknown[]) => ({
      seq, api: 'anthropic' as const, method: 'POST', path: '/v1/messages', query: '', headers: {}, main: true,
      body: { model: 'm', messages },
    });
    const once = [
      req(1, [{ role: 'user', content: 'deliver me' }]),
      req(2, [{ role: 'user', content: 'deliver me' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'next' }]),
    ];
    expect(countOccurrences(once, 'deliver me')).toBe(1);
    const twiceAsTwoTurns = [req(3, [{ role: 'user', content: 'deliver me' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: [{ type: 'text', text: 'deliver me' }] }])];
    expect(countOccurrences(twiceAsTwoTurns, 'deliver me')).toBe(2);
    expect(countOccurrences([req(4, [{ role: 'user', content: 'deliver me\ndeliver me' }])], 'deliver me')).toBe(2);
    expect(countOccurrences([req(5, [{ role: 'assistant', content: 'deliver me' }])], 'deliver me')).toBe(0);
    // Claude Code 2.1 puts `system` entries in `messages`: read past them, never count them.
    expect(countOccurrences([req(6, [{ role: 'system', content: [{ type: 'text', text: 'deliver me' }] }, { role: 'user', content: 'deliver me' }])], 'deliver me')).toBe(1);
    // A body the schema does not know fails loudly, naming the field, instead of counting 0.
    expect(() => countOccurrences([{ ...req(7, []), body: { model: 'm', messages: 'deliver me' } }], 'deliver me')).toThrow(/at messages:/);
  });
});
