import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { claudeGroup, hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { waitFor } from '../../test-support/daemon-fixture.js';
import { HOOK_HTTP_MAX_BODY } from './hook-http-request.js';

// The loopback HTTP hook listener (issue 35) against a real daemon whose fake-agent actor
// (installed as `claude`) holds a hooked launch: the same fences and commit as the command hook,
// every refusal a 4xx that stores nothing, limits on the body, and no token in any log.

type Fx = Awaited<ReturnType<typeof hookedRuntimeFixture>>;
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const statePath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'claude-hook-state', `${actorHookKey(gid, 'peer1')}.json`);
const launchPath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'runtime-hook-launch', `${actorHookKey(gid, 'peer1')}.json`);

interface Answer {
  status: number;
  body: string;
}

/** One raw HTTP request (node:http, so the test controls method, headers and body exactly). */
function post(url: string, headers: Record<string, string>, body: string | Buffer, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the loopback http hook listener (real daemon, fake claude with injected hooks)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  async function hookedClaude(env: NodeJS.ProcessEnv = {}) {
    fx = await hookedRuntimeFixture({ CCCC_WORKING_STATE_TICK_MS: '100', ...env });
    const gid = await claudeGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    const sessionId = await waitFor(() => (existsSync(statePath(fx!, gid)) ? readJson(statePath(fx!, gid)) : null)?.session_id as string | undefined, 15_000, 'SessionStart');
    const launch = readJson(launchPath(fx, gid)) as { launch_token: string; pid: number };
    return { fx, gid, sessionId, token: launch.launch_token, pid: launch.pid };
  }

  it('injects http hooks into the launch; the fake claude\'s turn goes over http and confirms the delivery', { timeout: 90_000 }, async () => {
    const { fx, gid, pid } = await hookedClaude();
    const url = fx.services.hookHttp?.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/claude-state$/);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const settings = JSON.parse(argv[argv.indexOf('--settings') + 1]!) as { hooks: Record<string, { hooks: { type: string; url?: string }[] }[]> };
    expect(settings.hooks.UserPromptSubmit![0]!.hooks[0]).toMatchObject({ type: 'http', url });
    expect(settings.hooks.SessionStart![0]!.hooks[0]!.type).toBe('command');
    const { event } = await fx.client.call('send', { group_id: gid, text: 'over http', to: ['peer1'], message_mode: 'send' });
    const status = await waitFor(async () => {
      const s = (await fx.client.call('ledger_statuses', { group_id: gid, event_ids: [event.id] })).statuses[event.id]?.['peer1'];
      return s?.delivery_confirmation ? s : null;
    }, 30_000, 'the delivery confirmation');
    expect(status).toMatchObject({ delivery_confirmation: 'confirmed' });
    // The turn's Stop went over http too: the hook state moved past UserPromptSubmit.
    await waitFor(() => readJson(statePath(fx, gid)).event === 'Stop', 15_000, 'Stop over http');
    // Nothing went through the command path for these events (it would log failures only, so check the log stayed empty).
    expect(existsSync(join(fx.home, 'daemon', 'hook.log'))).toBe(false);
  });

  it('auth, fences and limits: accepted events commit; every refusal is a 4xx that stores nothing', { timeout: 90_000 }, async () => {
    const { fx, gid, sessionId, token } = await hookedClaude();
    const url = fx.services.hookHttp!.url!;
    const ids = { 'x-cccc-group-id': gid, 'x-cccc-actor-id': 'peer1' };
    const auth = { ...ids, 'x-cccc-launch-token': token };
    const tool = (id: string, extra: object = {}) =>
      JSON.stringify({ hook_event_name: 'PreToolUse', session_id: sessionId, tool_use_id: id, tool_name: 'Bash', tool_input: { command: 'SECRET-INPUT' }, ...extra });

    const ok = await post(url, auth, tool('toolu_http_1'));
    expect(ok).toEqual({ status: 200, body: '{}' });
    const snap = async () => (await fx.client.call('runtime_activity_snapshot', { group_id: gid })).events;
    expect((await snap()).find((e) => e.operation_id === 'toolu_http_1')).toMatchObject({ status: 'started' });

    const before = readFileSync(statePath(fx, gid), 'utf8');
    const eventsBefore = JSON.stringify(await snap());
    const refusals: Array<[string, Promise<Answer>, number]> = [
      ['wrong token', post(url, { ...ids, 'x-cccc-launch-token': 'f'.repeat(token.length) }, tool('toolu_bad_1')), 403],
      ['no token', post(url, ids, tool('toolu_bad_2')), 401],
      ['uninterpolated token', post(url, { ...ids, 'x-cccc-launch-token': '$CCCC_HOOK_LAUNCH_TOKEN' }, tool('toolu_bad_3')), 401],
      ['unknown actor', post(url, { ...auth, 'x-cccc-actor-id': 'nobody' }, tool('toolu_bad_4')), 404],
      ['unknown group', post(url, { ...auth, 'x-cccc-group-id': 'g_missing' }, tool('toolu_bad_5')), 404],
      ['not JSON', post(url, auth, '{"hook_event_name":'), 400],
      ['no session_id', post(url, auth, JSON.stringify({ hook_event_name: 'PreToolUse', tool_use_id: 'toolu_bad_6' })), 400],
      ['unknown event', post(url, auth, JSON.stringify({ hook_event_name: 'Bogus', session_id: sessionId })), 400],
      ['another session', post(url, auth, tool('toolu_bad_7', { session_id: 'other-session' })), 409],
      ['wrong path', post(url.replace('/hooks/claude-state', '/hooks/codex-state'), auth, tool('toolu_bad_8')), 404],
      ['token in the query', post(`${url}?token=${token}`, ids, tool('toolu_bad_9')), 401],
      ['GET', post(url, auth, '', 'GET'), 405],
      ['body over the cap', post(url, auth, Buffer.alloc(HOOK_HTTP_MAX_BODY + 1, 0x20)), 413],
    ];
    for (const [what, answer, status] of refusals) expect({ what, status: (await answer).status }).toEqual({ what, status });
    // A chunked body (no content-length) over the cap is cut off as well.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { ...auth, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write(Buffer.alloc(64 * 1024, 0x20));
      req.end();
    }).catch(() => 413); // the listener may close mid-upload: refused either way
    expect(chunked).toBe(413);

    // Not HTTP at all: the connection is dropped, the daemon unharmed.
    const port = Number(new URL(url).port);
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end('GARBAGE \x00\x01 NOT HTTP\r\n\r\n'));
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
      socket.resume();
    });

    expect(readFileSync(statePath(fx, gid), 'utf8')).toBe(before);
    expect(JSON.stringify(await snap())).toBe(eventsBefore);
    // The daemon is unharmed, and the same launch goes on being accepted.
    expect(await fx.client.call('ping', {})).toMatchObject({ version: expect.any(String) });
    expect((await post(url, auth, tool('toolu_http_2'))).status).toBe(200);
    // The token and the tool input are in no log.
    const log = readFileSync(join(fx.home, 'daemon', 'ccccd.log'), 'utf8');
    expect(log).toContain('http hook');
    expect(log).not.toContain(token);
    expect(log).not.toContain('SECRET-INPUT');
  });

  it('CCCC_CLAUDE_HTTP_HOOKS=0: no listener, command hooks for every event', { timeout: 90_000 }, async () => {
    const { fx, gid, pid } = await hookedClaude({ CCCC_CLAUDE_HTTP_HOOKS: '0' });
    expect(fx.services.hookHttp).toBeUndefined();
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const settings = argv[argv.indexOf('--settings') + 1]!;
    expect(settings).not.toContain('"http"');
    const { event } = await fx.client.call('send', { group_id: gid, text: 'over the command hook', to: ['peer1'], message_mode: 'send' });
    const status = await waitFor(async () => (await fx.client.call('ledger_statuses', { group_id: gid, event_ids: [event.id] })).statuses[event.id]?.['peer1']?.delivery_confirmation, 30_000, 'confirmation');
    expect(status).toBe('confirmed');
  });
});
