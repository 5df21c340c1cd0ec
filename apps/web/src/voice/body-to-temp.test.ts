import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toErrorResponse } from '../http/errors.js';
import { withBodyInTempFile } from './body-to-temp.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections(), s.close();
});

/** A real HTTP server whose handler reads the body through withBodyInTempFile with `max` bytes. */
async function serve(max: number): Promise<string> {
  const server = createServer((req, res) => {
    withBodyInTempFile(req, max, async (bytes) => bytes.length)
      .then((n) => res.end(JSON.stringify({ ok: true, n })))
      .catch((err) => {
        const { status, error } = toErrorResponse(err);
        res.writeHead(status).end(JSON.stringify({ ok: false, error }));
      });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function post(url: string, chunks: Buffer[], headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += String(d)));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || (err as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(err)));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('withBodyInTempFile', () => {
  it('takes a body within the bound', async () => {
    const url = await serve(1000);
    expect(await post(url, [Buffer.alloc(600), Buffer.alloc(400)])).toMatchObject({ status: 200, body: { n: 1000 } });
  });

  it('refuses a chunked (unannounced) body the moment it passes the bound: 413 audio_too_large', async () => {
    const url = await serve(1000);
    expect(await post(url, [Buffer.alloc(600), Buffer.alloc(600)])).toMatchObject({ status: 413, body: { error: { code: 'audio_too_large' } } });
  });

  it('refuses an announced oversize body before reading it', async () => {
    const url = await serve(1000);
    expect(await post(url, [], { 'content-length': '5000' })).toMatchObject({ status: 413, body: { error: { code: 'audio_too_large' } } });
  });
});
