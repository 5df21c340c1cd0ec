import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BLOB_UPLOAD_BYTES } from '@cccc/ipc-protocol';
import { startWebServer, type WebServer } from './server.js';
import { startDaemonHome, type DaemonHome } from './testing/harness.js';

let daemon: DaemonHome;
let web: WebServer;
let gid: string;

beforeAll(async () => {
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0 });
  gid = await json('POST', '/api/v1/groups', { title: 'uploads' }).then((r) => r.json.result.group_id);
  await json('POST', `/api/v1/groups/${gid}/actors`, { actor_id: 'peer1', runtime: 'custom', command: ['true'] });
}, 180_000);

afterAll(async () => {
  await web?.close();
  await daemon?.stop();
}, 60_000);

async function json(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(web.url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

async function upload(route: string, fields: Record<string, string>, files: Array<{ name: string; content: Uint8Array | string; type?: string }>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('files', new Blob([f.content], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(`${web.url}/api/v1/groups/${gid}/${route}`, { method: 'POST', body: form });
  return { status: res.status, json: (await res.json()) as any };
}

const blobsDir = () => join(daemon.home, 'groups', gid, 'state', 'blobs');
const blobs = () => (existsSync(blobsDir()) ? readdirSync(blobsDir()).sort() : []);
const chatCount = async () => (await json('GET', `/api/v1/groups/${gid}/ledger/tail?kind=chat&limit=1000`)).json.result.events.length;

describe('send_upload / reply_upload', () => {
  it('stores each file through the daemon and sends one message carrying the attachments', async () => {
    const binary = Uint8Array.from([0, 1, 2, 250, 251, 252]);
    const r = await upload('send_upload', { text: 'see files', to_json: '["peer1"]', message_mode: 'mail' }, [
      { name: 'notes.md', content: '# notes\n', type: 'text/markdown' },
      { name: 'data.bin', content: binary },
    ]);
    expect(r.status).toBe(200);
    const event = r.json.result.event;
    expect(event.data).toMatchObject({ text: 'see files', to: ['peer1'], message_mode: 'mail' });
    const [md, bin] = event.data.attachments;
    expect(md).toMatchObject({ kind: 'text', title: 'notes.md', bytes: 8 });
    expect(bin).toMatchObject({ kind: 'file', title: 'data.bin', bytes: 6 });
    expect(readFileSync(join(daemon.home, 'groups', gid, md.path), 'utf8')).toBe('# notes\n');
    expect(readFileSync(join(daemon.home, 'groups', gid, bin.path))).toEqual(Buffer.from(binary));

    const reply = await upload('reply_upload', { reply_to: event.id, text: '', to_json: '["peer1"]', message_mode: 'mail' }, [{ name: 'answer.txt', content: 'ok' }]);
    expect(reply.status).toBe(200);
    expect(reply.json.result.event.data).toMatchObject({ reply_to: event.id, attachments: [{ title: 'answer.txt', bytes: 2 }] });
  });

  it('hostile file names never leave the blobs dir', async () => {
    const r = await upload('send_upload', { to_json: '["peer1"]', message_mode: 'mail' }, [
      { name: '../../../../tmp/evil.sh', content: 'a' },
      { name: '..\\..\\evil.bat', content: 'b' },
      { name: '.hidden', content: 'c' },
    ]);
    expect(r.status).toBe(200);
    for (const a of r.json.result.event.data.attachments) {
      expect(a.path).toMatch(/^state\/blobs\/[0-9a-f]{64}_[A-Za-z0-9._-]+$/);
      expect(a.path).not.toMatch(/_\./);
    }
    expect(blobs().every((f) => /^[0-9a-f]{64}_[A-Za-z0-9._-]+$/.test(f))).toBe(true);
    expect(existsSync(join(daemon.home, 'tmp'))).toBe(false);
  });

  it('refusals store nothing: a daemon rule (preflight), a file over the limit, too many files, a bad field', async () => {
    const before = { blobs: blobs(), chats: await chatCount() };
    const mailToUser = await upload('send_upload', { to_json: '["user"]', message_mode: 'mail' }, [{ name: 'x.txt', content: 'x' }]);
    expect(mailToUser).toMatchObject({ status: 400, json: { ok: false, error: { code: 'mail_requires_actor_recipient' } } });
    const big = await upload('send_upload', { to_json: '["peer1"]' }, [{ name: 'big.bin', content: new Uint8Array(MAX_BLOB_UPLOAD_BYTES + 1) }]);
    expect(big).toMatchObject({ status: 413, json: { error: { code: 'file_too_large', details: { name: 'big.bin' } } } });
    const many = await upload('send_upload', { to_json: '["peer1"]' }, Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, content: `${i}` })));
    expect(many).toMatchObject({ status: 400, json: { error: { code: 'too_many_files' } } });
    const badTo = await upload('send_upload', { to_json: 'peer1' }, [{ name: 'x.txt', content: 'x' }]);
    expect(badTo).toMatchObject({ status: 400, json: { error: { code: 'invalid_request', details: { field: 'to_json' } } } });
    const noReplyTo = await upload('reply_upload', {}, [{ name: 'x.txt', content: 'x' }]);
    expect(noReplyTo).toMatchObject({ status: 400, json: { error: { code: 'missing_reply_to' } } });
    const huge = await upload('send_upload', { to_json: '["peer1"]' }, Array.from({ length: 4 }, (_, i) => ({ name: `part${i}.bin`, content: new Uint8Array(17 * 1024 * 1024) })));
    expect(huge).toMatchObject({ status: 413, json: { error: { code: 'payload_too_large' } } });
    const asJson = await json('POST', `/api/v1/groups/${gid}/send_upload`, { text: 'x' });
    expect(asJson).toMatchObject({ status: 415, json: { error: { code: 'unsupported_media_type' } } });
    expect({ blobs: blobs(), chats: await chatCount() }).toEqual(before);
  });

  it('a repeated client_id replays the original message without storing the new files', async () => {
    const first = await upload('send_upload', { to_json: '["peer1"]', message_mode: 'mail', client_id: 'upload-1' }, [{ name: 'one.txt', content: 'one' }]);
    expect(first.status).toBe(200);
    const before = blobs();
    const again = await upload('send_upload', { to_json: '["peer1"]', message_mode: 'mail', client_id: 'upload-1' }, [{ name: 'two.txt', content: 'two' }]);
    expect(again.status).toBe(200);
    expect(again.json.result.event.id).toBe(first.json.result.event.id);
    expect(blobs()).toEqual(before);
  });

  it('GET blobs/{name} serves an attachment through the daemon, never as active content', async () => {
    const r = await upload('send_upload', { to_json: '["peer1"]', message_mode: 'mail' }, [
      { name: 'pic.png', content: Uint8Array.from([137, 80, 78, 71]) },
      { name: 'page.html', content: '<script>alert(1)</script>' },
    ]);
    const [png, html] = r.json.result.event.data.attachments;
    const get = (path: string) => fetch(`${web.url}/api/v1/groups/${gid}/blobs/${path.slice('state/blobs/'.length)}`);
    const img = await get(png.path);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await img.arrayBuffer())).toEqual(Buffer.from([137, 80, 78, 71]));
    const page = await get(html.path);
    expect(page.headers.get('content-type')).toBe('application/octet-stream');
    expect(page.headers.get('content-disposition')).toMatch(/^attachment; filename="page.html"$/);
    expect(page.headers.get('content-security-policy')).toContain('sandbox');
    expect(await page.text()).toBe('<script>alert(1)</script>');
    const bad = await fetch(`${web.url}/api/v1/groups/${gid}/blobs/..%2F..%2Fgroup.yaml`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe('invalid_blob');
    const missing = await fetch(`${web.url}/api/v1/groups/${gid}/blobs/${'0'.repeat(64)}_nope.txt`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe('blob_not_found');
  });
});
