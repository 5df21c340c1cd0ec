#!/usr/bin/env node
// A minimal MCP stdio server for the real-codex tests: one tool, `deploy`, that asks the person
// through an MCP elicitation (`elicitation/create`, a form with one `env` field) and returns what
// it got back, so a test can see the answer reach the model. Newline-delimited JSON-RPC 2.0.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
/** tools/call requests waiting on their elicitation, by the elicitation's request id. */
const waiting = new Map();
let next = 0;

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.method === undefined && waiting.has(msg.id)) {
    const callId = waiting.get(msg.id);
    waiting.delete(msg.id);
    const r = msg.result ?? { action: 'error', content: msg.error ?? null };
    send({ id: callId, result: { content: [{ type: 'text', text: `elicitation answered: ${r.action} ${JSON.stringify(r.content ?? null)}` }] } });
    return;
  }
  switch (msg.method) {
    case 'initialize':
      send({ id: msg.id, result: { protocolVersion: msg.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'deploy', version: '1.0.0' } } });
      return;
    case 'tools/list':
      send({ id: msg.id, result: { tools: [{ name: 'deploy', description: 'Deploy the project; asks the person where.', inputSchema: { type: 'object', properties: {} } }] } });
      return;
    case 'tools/call': {
      const id = `elicit-${next++}`;
      waiting.set(id, msg.id);
      send({
        id,
        method: 'elicitation/create',
        params: {
          message: 'Where should I deploy?',
          requestedSchema: { type: 'object', properties: { env: { type: 'string', enum: ['staging', 'prod'] } }, required: ['env'] },
        },
      });
      return;
    }
    default:
      if (msg.id !== undefined) send({ id: msg.id, error: { code: -32601, message: `${msg.method} not supported` } });
  }
});
