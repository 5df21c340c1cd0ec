import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BLOB_UPLOAD_BYTES } from '@cccc/ipc-protocol';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;
const blobsDir = () => join(fx.home, 'groups', gid, 'state', 'blobs');
const blobFiles = () => (existsSync(blobsDir()) ? readdirSync(blobsDir()) : []);

beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = (await fx.client.call('group_create', { title: 'blobs' })).group_id;
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['sh'] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

/** A raw blob_upload: the handshake, then whatever bytes the test wants, then the outcome line. */
async function rawUpload(args: Record<string, unknown>, payload: Buffer): Promise<string[]> {
  const ep = fx.daemon.endpoint as { path: string };
  const socket = createConnection(ep.path);
  await new Promise((r) => socket.once('connect', r));
  const lines: string[] = [];
  let buf = '';
  socket.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (lines.length === 1) socket.write(payload);
    }
  });
  socket.write(JSON.stringify({ v: 1, op: 'blob_upload', args }) + '\n');
  await new Promise((r) => socket.once('close', r));
  return lines;
}

describe('blob_upload', () => {
  it('stores the bytes content-addressed under state/blobs and answers with the attachment record', async () => {
    const content = Buffer.from('hello blob\n');
    const ref = await fx.client.uploadBlob({ group_id: gid, name: 'notes.txt', content });
    expect(ref).toMatchObject({ kind: 'text', title: 'notes.txt', mime_type: 'text/plain', bytes: content.length });
    expect(ref.path).toBe(`state/blobs/${ref.sha256}_notes.txt`);
    expect(readFileSync(join(fx.home, 'groups', gid, ref.path))).toEqual(content);
    // The attachment can ride on a send.
    const sent = await fx.client.call('send', { group_id: gid, text: '', to: ['peer1'], message_mode: 'mail', attachments: [ref] });
    expect(sent.event.data.attachments).toEqual([ref]);
  });

  it('hostile names stay a single safe file name inside the blobs dir', async () => {
    for (const name of ['../../../../etc/passwd', '..\\..\\evil.txt', '..', '/', 'a/b/\u0007bell\r\n.txt']) {
      const ref = await fx.client.uploadBlob({ group_id: gid, name, content: Buffer.from(`x${name}`) });
      expect(ref.path).toMatch(/^state\/blobs\/[0-9a-f]{64}_[A-Za-z0-9._-]+$/);
      expect(ref.path.slice('state/blobs/'.length)).not.toMatch(/^\.|\//);
      expect(ref.title).not.toMatch(/[\\/\u0000-\u001f]/);
      expect(existsSync(join(fx.home, 'groups', gid, ref.path))).toBe(true);
    }
    expect(existsSync(join(fx.home, 'etc'))).toBe(false);
    expect(blobFiles().every((f) => !f.includes('/'))).toBe(true);
  });

  it('refuses more than the limit before any byte, and a size mismatch stores nothing', async () => {
    const before = blobFiles();
    const tooBig = await fx.client
      .call('blob_upload', { group_id: gid, name: 'big.bin', bytes: MAX_BLOB_UPLOAD_BYTES + 1 })
      .then(() => null, (e: { code: string }) => e.code);
    expect(tooBig).toBe('file_too_large');
    const lines = await rawUpload({ group_id: gid, name: 'short.txt', bytes: 4 }, Buffer.from('more than four'));
    expect(JSON.parse(lines[0]!)).toMatchObject({ ok: true, result: { group_id: gid } });
    expect(JSON.parse(lines[1]!)).toMatchObject({ t: 'error', code: 'blob_size_mismatch' });
    expect(blobFiles()).toEqual(before);
    const missing = await fx.client
      .uploadBlob({ group_id: 'g_000000000000', name: 'x.txt', content: Buffer.from('x') })
      .then(() => null, (e: { code: string }) => e.code);
    expect(missing).toBe('group_not_found');
    const stranger = await fx.client
      .uploadBlob({ group_id: gid, name: 'x.txt', content: Buffer.from('x'), by: 'nobody' })
      .then(() => null, (e: { code: string }) => e.code);
    expect(stranger).toBe('permission_denied');
  });

  it('blob_read streams a stored blob back; other names, missing files and symlinks are refused', async () => {
    const content = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const ref = await fx.client.uploadBlob({ group_id: gid, name: 'big.bin', content });
    const name = ref.path.slice('state/blobs/'.length);
    const blob = await fx.client.readBlob({ group_id: gid, name });
    expect(blob.bytes).toBe(content.length);
    const chunks: Buffer[] = [];
    for await (const c of blob.body) chunks.push(c);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);

    const code = (p: Promise<unknown>) => p.then(() => null, (e: { code: string }) => e.code);
    expect(await code(fx.client.readBlob({ group_id: gid, name: '../../group.yaml' }))).toBe('invalid_blob');
    expect(await code(fx.client.readBlob({ group_id: gid, name: `${'0'.repeat(64)}_missing.txt` }))).toBe('blob_not_found');
    const secret = join(fx.home, 'secret.txt');
    writeFileSync(secret, 'secret');
    const planted = `${'1'.repeat(64)}_link.txt`;
    symlinkSync(secret, join(blobsDir(), planted));
    expect(await code(fx.client.readBlob({ group_id: gid, name: planted }))).toBe('blob_not_found');
  });

  it('send and reply refuse attachment records that are not stored blobs of the group, writing nothing', async () => {
    const lines = () => fx.ledgerLines(gid).length;
    const before = lines();
    const code = (p: Promise<unknown>) => p.then(() => null, (e: { code: string }) => e.code);
    for (const path of ['../../../etc/passwd', 'state/blobs/../group.yaml', `state/blobs/${'0'.repeat(64)}_missing.txt`, '/etc/passwd']) {
      expect(await code(fx.client.call('send', { group_id: gid, text: 'x', to: ['peer1'], message_mode: 'mail', attachments: [{ path }] }))).toBe('invalid_attachment');
    }
    const ok = await fx.client.call('send', { group_id: gid, text: 'ok', to: ['peer1'], message_mode: 'mail' });
    expect(await code(fx.client.call('reply', { group_id: gid, reply_to: ok.event.id, text: 'r', to: ['peer1'], message_mode: 'mail', attachments: [{ path: '/etc/passwd' }] }))).toBe('invalid_attachment');
    expect(lines()).toBe(before + 1);
  });
});
