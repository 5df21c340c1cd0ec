import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { daemonPaths } from '@cccc/ipc-protocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;

beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = (await fx.client.call('group_create', { title: 'hostile' })).group_id;
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['cat'] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

/** Send one raw request line and read one response line. */
function exchange(line: string): Promise<{ ok: boolean; error?: { code: string; details?: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(daemonPaths(fx.home).sock);
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      got += d;
      const nl = got.indexOf('\n');
      if (nl >= 0) {
        socket.destroy();
        resolve(JSON.parse(got.slice(0, nl)));
      }
    });
    socket.on('error', reject);
    socket.write(line + '\n');
  });
}

describe('deeply nested JSON (issue 20)', () => {
  it('a send whose refs nest 2,000, 5,000 or 100,000 levels is invalid_request naming the limit, appends nothing, and the daemon keeps answering', async () => {
    const before = fx.ledgerLines(gid).length;
    for (const levels of [2_000, 5_000, 100_000]) {
      const refs = '['.repeat(levels) + ']'.repeat(levels);
      const response = await exchange(`{"v":1,"op":"send","args":{"group_id":"${gid}","text":"deep","to":["peer1"],"message_mode":"send","refs":${refs}}}`);
      expect(response).toMatchObject({ ok: false, error: { code: 'invalid_request', details: { limit: 'json_depth', max: 64 } } });
      const started = Date.now();
      expect(await exchange('{"v":1,"op":"ping","args":{}}')).toMatchObject({ ok: true });
      expect(Date.now() - started).toBeLessThan(1000);
    }
    expect(fx.ledgerLines(gid).length).toBe(before);
  });

  it('nesting within the limit is still served, and every ledger line stays readable by Python\'s json', async () => {
    const sane = '['.repeat(60) + ']'.repeat(60);
    const response = await exchange(`{"v":1,"op":"send","args":{"group_id":"${gid}","text":"ok","to":["peer1"],"message_mode":"send","ignored_extra":${sane}}}`);
    expect(response, JSON.stringify(response)).toMatchObject({ ok: true });
    const ledger = join(fx.home, 'groups', gid, 'ledger.jsonl');
    const read = spawnSync('python3', ['-c', 'import json,sys\nfor line in open(sys.argv[1]): json.loads(line)\nprint("ok")', ledger], { encoding: 'utf8' });
    expect(read.stdout.trim(), read.stderr).toBe('ok');
  });
});
