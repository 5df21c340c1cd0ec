import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJson } from './body.js';
import { parseJsonText } from './json-text.js';

function request(body: string): IncomingMessage {
  return Object.assign(Readable.from([Buffer.from(body)]), { headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }) as unknown as IncomingMessage;
}

async function errorOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(() => undefined, (e: unknown) => e);
}

describe('JSON bodies under the daemon shape limits', () => {
  it('a body nested past 64 levels or with more than 100,000 values is a 400 naming the limit, never parsed', async () => {
    const deep = `{"text":"x","refs":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(await errorOf(readJson(request(deep)))).toMatchObject({ status: 400, code: 'invalid_request', details: { limit: 'json_depth', max: 64 } });
    const wide = `[${Array(100_001).fill(0).join(',')}]`;
    expect(await errorOf(readJson(request(wide)))).toMatchObject({ status: 400, code: 'invalid_request', details: { limit: 'json_nodes', max: 100_000 } });
    expect(await readJson(request('{"text":"fine","refs":[[{"a":1}]]}'))).toEqual({ text: 'fine', refs: [[{ a: 1 }]] });
  });

  it('form fields holding JSON get the same limits and name their field', () => {
    expect(() => parseJsonText('['.repeat(65) + ']'.repeat(65), 'to_json', 'to_json')).toThrow(expect.objectContaining({ details: { limit: 'json_depth', max: 64, field: 'to_json' } }));
    expect(() => parseJsonText('{nope', 'to_json', 'to_json')).toThrow(expect.objectContaining({ code: 'invalid_request', details: { field: 'to_json' } }));
  });
});
