import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccessToken, revokeAccessToken, startWebServer } from '@cccc/web';
import { TortureDaemon } from '../daemon-process.js';
import { sleep, type Family } from '../family.js';
import { errorCode, errorReason, http, json, type HttpReply } from '../http.js';
import { ledgerSizes, sameSizes } from '../ledger-files.js';
import { check } from '../runner.js';
import { Sandbox } from '../sandbox.js';
import { ok } from '../wire.js';
import { createGroup } from './setup.js';

// The Web port (a client of the daemon): Host / Origin / content-type in open mode, tokens once
// one exists, a group token kept to its group and away from launches (issue 20 point 5), path
// traversal in the static and blob routes, and the JSON shape limits on request bodies.

const MiB = 1024 * 1024;

export const webFamily: Family = {
  name: 'web',
  async run(runner) {
    using box = Sandbox.create('web');
    const marker = `TORTURE-WEB-OUTSIDE-${randomBytes(12).toString('hex')}`;
    writeFileSync(join(box.outside, 'secret.txt'), marker);
    await using daemon = await TortureDaemon.start(box.home, box.daemonOutput);
    const web = await startWebServer({ home: box.home, port: 0 });
    try {
      const a = await createGroup(daemon.sock, 'web A');
      const b = await createGroup(daemon.sock, 'web B');
      const port = web.port;
      const mailBody = () => json({ text: 'from the web', to: ['peer1'], message_mode: 'mail' });
      const unchanged = async (what: string, run: () => Promise<void>) => {
        const before = ledgerSizes(box.home);
        await run();
        await sleep(100);
        const changed = sameSizes(before, ledgerSizes(box.home));
        check(changed === undefined, `${what}: the ledger changed (${changed})`);
      };
      const expectStatus = (reply: HttpReply, what: string, ...statuses: number[]) =>
        check(statuses.includes(reply.status), `${what}: ${reply.status} ${reply.body.slice(0, 200)}`);

      await runner.case('Web, open mode: a non-loopback Host is refused (DNS rebinding), a write from another Origin is refused, a non-JSON body is 415', 30_000, async () => {
        expectStatus(await http(port, 'GET', '/api/v1/ping'), 'loopback Host', 200);
        expectStatus(await http(port, 'GET', '/api/v1/ping', { host: `localhost:${port}` }), 'localhost Host', 200);
        for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `10.0.0.1:${port}`, `[::ffff:10.0.0.1]:${port}`]) {
          expectStatus(await http(port, 'GET', '/api/v1/groups', { host }), `Host ${host}`, 403);
        }
        await unchanged('foreign Origin', async () => {
          for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `http://127.0.0.1:${port + 1}`]) {
            const { headers, body } = mailBody();
            expectStatus(await http(port, 'POST', `/api/v1/groups/${a}/send`, { ...headers, origin }, body), `Origin ${origin}`, 403);
          }
          expectStatus(await http(port, 'POST', `/api/v1/groups/${a}/send`, { 'content-type': 'text/plain' }, mailBody().body), 'text/plain body', 415);
        });
        const { headers, body } = mailBody();
        expectStatus(await http(port, 'POST', `/api/v1/groups/${a}/send`, { ...headers, origin: `http://127.0.0.1:${port}` }, body), 'same Origin', 200);
      });

      await runner.case('Web JSON bodies: nested 5,000 levels is 400 invalid_request (json_depth), 3 MiB is 413; nothing appended', 30_000, async () => {
        await unchanged('hostile bodies', async () => {
          const deep = `{"text":"x","to":["peer1"],"message_mode":"mail","refs":${'['.repeat(5000)}${']'.repeat(5000)}}`;
          const reply = await http(port, 'POST', `/api/v1/groups/${a}/send`, { 'content-type': 'application/json' }, deep);
          expectStatus(reply, 'deep body', 400);
          check(errorCode(reply) === 'invalid_request' && reply.body.includes('json_depth'), `deep body: ${reply.body.slice(0, 200)}`);
          const huge = JSON.stringify({ text: 'h'.repeat(3 * MiB), to: ['peer1'], message_mode: 'mail' });
          expectStatus(await http(port, 'POST', `/api/v1/groups/${a}/send`, { 'content-type': 'application/json' }, huge), '3 MiB body', 413);
          expectStatus(await http(port, 'POST', `/api/v1/groups/${a}/send`, { 'content-type': 'application/json' }, '{"text":'), 'truncated body', 400);
        });
      });

      const admin = createAccessToken(box.home, { admin: true }).token;
      const groupA = createAccessToken(box.home, { groups: [a] }).token;
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

      await runner.case('Web tokens: once one exists, no token / a wrong token / a revoked token is 401; the cookie and ?token= work', 30_000, async () => {
        expectStatus(await http(port, 'GET', '/api/v1/groups'), 'no token', 401);
        expectStatus(await http(port, 'GET', '/api/v1/groups', bearer(`acc_${'0'.repeat(32)}`)), 'wrong token', 401);
        expectStatus(await http(port, 'GET', '/api/v1/groups', bearer(`${admin}x`)), 'token with a suffix', 401);
        expectStatus(await http(port, 'GET', '/api/v1/groups', { authorization: `Bearer ${admin.slice(0, 20)}` }), 'token prefix', 401);
        expectStatus(await http(port, 'GET', '/api/v1/groups', bearer(admin)), 'admin token', 200);
        expectStatus(await http(port, 'GET', '/api/v1/groups', { cookie: `cccc_access_token=${admin}` }), 'cookie', 200);
        expectStatus(await http(port, 'GET', `/api/v1/groups?token=${admin}`), '?token=', 200);
        const doomed = createAccessToken(box.home, { groups: [a] }).token;
        expectStatus(await http(port, 'GET', `/api/v1/groups/${a}`, bearer(doomed)), 'a token about to be revoked', 200);
        revokeAccessToken(box.home, doomed);
        expectStatus(await http(port, 'GET', `/api/v1/groups/${a}`, bearer(doomed)), 'revoked token', 401);
        // Open-mode writes are gone too: a token-less send is 401, not served as the user.
        await unchanged('token-less send', async () => {
          const { headers, body } = mailBody();
          expectStatus(await http(port, 'POST', `/api/v1/groups/${a}/send`, headers, body), 'token-less send', 401);
        });
      });

      await runner.case('Web: a group token cannot reach another group (read, write, stream, blob, cross-group send, admin routes)', 30_000, async () => {
        await unchanged('group token on group B', async () => {
          const h = bearer(groupA);
          for (const path of [`/api/v1/groups/${b}`, `/api/v1/groups/${b}/ledger/tail`, `/api/v1/groups/${b}/actors`, `/api/v1/groups/${b}/context`, `/api/v1/groups/${b}/inbox/peer1`, `/api/v1/groups/${b}/blobs/${'0'.repeat(64)}_x.txt`]) {
            expectStatus(await http(port, 'GET', path, h), `GET ${path}`, 403, 404);
          }
          expectStatus(await http(port, 'GET', `/api/v1/groups/${b}/ledger/stream`, h, undefined, 5000), 'SSE of group B', 403, 404);
          const { headers, body } = mailBody();
          expectStatus(await http(port, 'POST', `/api/v1/groups/${b}/send`, { ...h, ...headers }, body), 'send to B', 403, 404);
          const cross = json({ dst_group_id: b, text: 'x', to: ['peer1'], message_mode: 'mail' });
          expectStatus(await http(port, 'POST', `/api/v1/groups/${a}/send_cross_group`, { ...h, ...cross.headers }, cross.body), 'send_cross_group A -> B', 403, 404);
          expectStatus(await http(port, 'DELETE', `/api/v1/groups/${b}`, h), 'delete B', 403, 404);
          expectStatus(await http(port, 'POST', '/api/v1/groups', { ...h, ...json({ title: 'x' }).headers }, json({ title: 'x' }).body), 'create a group', 403);
          expectStatus(await http(port, 'GET', '/api/v1/access-tokens', h), 'list tokens', 403);
          const minted = json({ is_admin: true });
          expectStatus(await http(port, 'POST', '/api/v1/access-tokens', { ...h, ...minted.headers }, minted.body), 'mint a token', 403);
        });
        const list = JSON.parse((await http(port, 'GET', '/api/v1/groups', bearer(groupA))).body) as { result: { groups: Array<{ group_id: string }> } };
        const seen = list.result.groups.map((g) => g.group_id);
        check(seen.length === 1 && seen[0] === a, `the group token lists ${JSON.stringify(seen)}`);
      });

      await runner.case('Web: a group token cannot add an actor or change what one runs (403 launch_change_requires_admin), and nothing is written (issue 20 point 5)', 30_000, async () => {
        const h = bearer(groupA);
        const launches = async () => {
          const { actors } = await ok<{ actors: Array<Record<string, unknown>> }>(daemon.sock, 'actor_list', { group_id: a });
          return JSON.stringify(actors.map((x) => [x['id'], x['runtime'], x['command'], x['env']]));
        };
        const launchesBefore = await launches();
        const privateBefore = JSON.stringify(await ok(daemon.sock, 'actor_env_private_keys', { group_id: a, actor_id: 'peer1' }));
        await unchanged('launch changes by a group token', async () => {
          const attempts: Array<[string, string, unknown]> = [
            ['POST', `/api/v1/groups/${a}/actors`, { actor_id: 'evil', runtime: 'custom', command: ['sh', '-c', `echo pwned > ${join(box.outside, 'pwned')}`] }],
            ['POST', `/api/v1/groups/${a}/actors/peer1`, { patch: { command: ['sh', '-c', 'id'] } }],
            ['PUT', `/api/v1/groups/${a}/actors/peer1`, { runtime: 'codex' }],
            ['POST', `/api/v1/groups/${a}/actors/peer1`, { patch: { env: { PATH: box.outside } } }],
            ['POST', `/api/v1/groups/${a}/actors/peer1`, { patch: { runtime: 'claude' } }],
            ['POST', `/api/v1/groups/${a}/actors/peer1/env_private`, { set: { LD_PRELOAD: join(box.outside, 'x.so') } }],
          ];
          for (const [method, path, body] of attempts) {
            const reply = await http(port, method, path, { ...h, 'content-type': 'application/json' }, JSON.stringify(body));
            check(reply.status === 403 && errorCode(reply) === 'permission_denied' && errorReason(reply) === 'launch_change_requires_admin', `${method} ${path} ${JSON.stringify(body).slice(0, 80)}: ${reply.status} ${reply.body.slice(0, 200)}`);
          }
        });
        check((await launches()) === launchesBefore, () => `the actors' launches changed: ${launchesBefore}`);
        check(JSON.stringify(await ok(daemon.sock, 'actor_env_private_keys', { group_id: a, actor_id: 'peer1' })) === privateBefore, 'the private env keys changed');
        // The admin may (so the refusals above are about the token, not the request).
        const added = await http(port, 'POST', `/api/v1/groups/${a}/actors`, { ...bearer(admin), 'content-type': 'application/json' }, JSON.stringify({ actor_id: 'byadmin', runtime: 'custom', command: ['cat'] }));
        expectStatus(added, 'admin adds an actor', 200);
      });

      await runner.case('Web path traversal: the static and blob routes never serve a file outside (encoded, doubled and absolute ../)', 30_000, async () => {
        const appDir = join(dirname(fileURLToPath(import.meta.resolve('@cccc/web'))), 'app');
        const up = '../'.repeat(appDir.split('/').length + 2);
        const target = join(box.outside, 'secret.txt').slice(1);
        const paths = [
          `/${up}${target}`,
          `/${up.replaceAll('../', '%2e%2e/')}${target}`,
          `/${up.replaceAll('../', '..%2f')}${target}`,
          `/${up.replaceAll('../', '%2e%2e%2f')}${target}`,
          `/assets/${up.replaceAll('../', '..%2f')}${target}`,
          `/${up.replaceAll('../', '....//')}${target}`,
          `/${up.replaceAll('../', '..\\')}${target}`,
          `//${target}`,
          `/%00/${up}${target}`,
          `/${up}etc/passwd`,
          `/api/v1/groups/${a}/blobs/..%2f..%2fgroup.yaml`,
          `/api/v1/groups/${a}/blobs/${'0'.repeat(64)}_..%2f..%2f..%2fgroup.yaml`,
          `/api/v1/groups/${a}/blobs/${'0'.repeat(64)}_${up.replaceAll('../', '..%2f')}${target}`,
          `/api/v1/groups/..%2f${b}/ledger/tail`,
          `/api/v1/groups/${a}%2f..%2f${b}/ledger/tail`,
        ];
        for (const path of paths) {
          for (const token of [admin, groupA]) {
            const reply = await http(port, 'GET', path, bearer(token));
            check([200, 400, 401, 403, 404].includes(reply.status), `GET ${path}: ${reply.status}`);
            check(!reply.body.includes(marker), `GET ${path} served the file outside`);
            check(!/root:.*:0:0:/.test(reply.body), `GET ${path} served /etc/passwd`);
            check(!/^group_id:/m.test(reply.body), `GET ${path} served a group.yaml`);
          }
        }
      });
    } finally {
      await web.close();
    }
  },
};
