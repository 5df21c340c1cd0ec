import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createAccessToken, startWebServer } from '@cccc/web';
import { TortureDaemon } from '../daemon-process.js';
import { sleep, type Family } from '../family.js';
import { http } from '../http.js';
import { check } from '../runner.js';
import { Sandbox } from '../sandbox.js';
import { filesContaining } from '../tree.js';
import { call, ok, tapResponses } from '../wire.js';
import { createGroup } from './setup.js';

// Secret-leak sweep: private env and profile secrets with recognizable random values, set
// through every way in (actor_env_private_update, actor_add env_private, profile secrets, a copy
// between them, the Web), used by started actors, refused updates that carry them, a kill -9 and
// restart; then every file of CCCC_HOME but the secrets store (state/secrets), the daemon's log
// and output, and every response read during the family must hold none of them.

/** Ops that only read, with the args to call them on the secret group. */
function reads(gid: string, profileId: string): Array<[string, Record<string, unknown>]> {
  const actor = { group_id: gid, actor_id: 'sec' };
  return [
    ['ping', {}],
    ['groups', {}],
    ['group_show', { group_id: gid, detail: true }],
    ['actor_list', { group_id: gid, include_unread: true }],
    ['actor_env_private_keys', actor],
    ['actor_env_private_keys', { group_id: gid, actor_id: 'viaadd' }],
    ['actor_profile_list', {}],
    ['actor_profile_get', { profile_id: profileId }],
    ['actor_profile_secret_keys', { profile_id: profileId }],
    ['debug_snapshot', { group_id: gid }],
    ['ledger_tail', { group_id: gid, limit: 1000 }],
    ['ledger_search', { group_id: gid, query: 'TORTURE' }],
    ['ledger_snapshot', { group_id: gid }],
    ['inbox_peek', actor],
    ['message_history', actor],
    ['context_get', { group_id: gid }],
    ['task_list', { group_id: gid }],
    ['runtime_activity_snapshot', { group_id: gid }],
    ['terminal_tail', actor],
    ['terminal_snapshot', actor],
    ['terminal_history', actor],
    ['group_help_get', actor],
    ['group_preamble_get', { group_id: gid }],
    ['actor_notes_get', { group_id: gid, target_actor_id: 'sec' }],
    ['runtime_list', {}],
  ];
}

export const secretsFamily: Family = {
  name: 'secrets',
  async run(runner) {
    using box = Sandbox.create('secrets');
    const secret = (what: string) => `TORTURE${what}${randomBytes(16).toString('hex')}`;
    const secrets = {
      privateEnv: secret('PRIVATEENV'),
      addEnvPrivate: secret('ADDENVPRIVATE'),
      profile: secret('PROFILE'),
      refusedKey: secret('REFUSEDKEY'),
      unknownActor: secret('UNKNOWNACTOR'),
      web: secret('WEB'),
    };
    const values = Object.values(secrets);
    // Every response line read in this family, for the sweep (the hex values are the same in JSON).
    const seen: string[] = [];
    using _tap = tapResponses((line) => {
      for (const v of values) if (line.includes(v) || line.includes(Buffer.from(v).toString('base64'))) seen.push(`${v.slice(0, 20)}… in ${line.slice(0, 160)}`);
    });
    let daemon = await TortureDaemon.start(box.home, box.daemonOutput, { CCCC_DEVELOPER_MODE: '1' });
    const web = await startWebServer({ home: box.home, port: 0 });
    try {
      const gid = await createGroup(daemon.sock, 'secrets');
      const scope = join(box.root, 'scope');
      mkdirSync(scope);
      await ok(daemon.sock, 'attach', { path: scope, group_id: gid });
      let profileId = '';

      await runner.case('secrets set every way in, actors started with them, refused updates carrying them, a kill -9 and restart, every read op called (IPC and Web)', 120_000, async () => {
        await ok(daemon.sock, 'actor_add', { group_id: gid, actor_id: 'sec', runtime: 'custom', command: ['cat'] });
        await ok(daemon.sock, 'actor_env_private_update', { group_id: gid, actor_id: 'sec', set: { TORTURE_TOKEN: secrets.privateEnv } });
        await ok(daemon.sock, 'actor_add', { group_id: gid, actor_id: 'viaadd', runtime: 'custom', command: ['cat'], env_private: { ADD_TOKEN: secrets.addEnvPrivate } });
        const profile = await ok<{ profile: { id: string } }>(daemon.sock, 'actor_profile_upsert', { profile: { name: 'secret profile', runtime: 'custom', command: ['cat'] } });
        profileId = profile.profile.id;
        // A copy replaces the profile's secrets with the actor's; the profile's own comes after.
        await ok(daemon.sock, 'actor_profile_secret_copy_from_actor', { profile_id: profileId, group_id: gid, actor_id: 'sec' });
        await ok(daemon.sock, 'actor_profile_secret_update', { profile_id: profileId, set: { PROFILE_TOKEN: secrets.profile } });
        await ok(daemon.sock, 'actor_add', { group_id: gid, actor_id: 'byprofile', profile_id: profileId });
        // Refusals whose request carries a secret: the answer and the log must not echo it.
        for (const [op, args] of [
          ['actor_env_private_update', { group_id: gid, actor_id: 'sec', set: { 'bad key!': secrets.refusedKey } }],
          ['actor_env_private_update', { group_id: gid, actor_id: 'nobody', set: { TOKEN: secrets.unknownActor } }],
          ['actor_profile_secret_update', { profile_id: 'ap_nobody', set: { TOKEN: secrets.unknownActor } }],
          ['actor_add', { group_id: gid, actor_id: 'sec', runtime: 'custom', command: ['cat'], env_private: { TOKEN: secrets.refusedKey } }],
          ['actor_env_private_update', { group_id: gid, actor_id: 'sec', set: { TOKEN: secrets.refusedKey }, unset: 5 }],
        ] as const) {
          const response = await call(daemon.sock, op, args);
          check(!response.ok, `${op} with a bad request was accepted`);
        }
        const admin = createAccessToken(box.home, { admin: true }).token;
        const h = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
        const webSet = await http(web.port, 'POST', `/api/v1/groups/${gid}/actors/viaadd/env_private`, h, JSON.stringify({ set: { WEB_TOKEN: secrets.web } }));
        check(webSet.status === 200, `Web env_private: ${webSet.status} ${webSet.body.slice(0, 200)}`);

        // The secrets reach the actors' processes (started), then every read.
        for (const actor of ['sec', 'viaadd', 'byprofile']) await ok(daemon.sock, 'actor_start', { group_id: gid, actor_id: actor });
        await sleep(500);
        const readAll = async () => {
          for (const [op, args] of reads(gid, profileId)) await call(daemon.sock, op, args);
          for (const path of ['/api/v1/groups', `/api/v1/groups/${gid}`, `/api/v1/groups/${gid}/actors`, `/api/v1/groups/${gid}/actors/sec/env_private`, `/api/v1/groups/${gid}/ledger/tail`, `/api/v1/groups/${gid}/context`, `/api/v1/groups/${gid}/settings`, `/api/v1/groups/${gid}/terminal/tail?actor_id=sec`, '/api/v1/ping', '/api/v1/runtimes', '/api/v1/access-tokens']) {
            const reply = await http(web.port, 'GET', path, { authorization: `Bearer ${admin}` });
            for (const v of values) if (reply.body.includes(v)) seen.push(`${v.slice(0, 20)}… in GET ${path}`);
          }
        };
        await readAll();
        await daemon.kill9();
        daemon = await TortureDaemon.start(box.home, box.daemonOutput, { CCCC_DEVELOPER_MODE: '1' });
        await readAll();
        for (const actor of ['sec', 'viaadd', 'byprofile']) await call(daemon.sock, 'actor_stop', { group_id: gid, actor_id: actor });
        check(seen.length === 0, () => `a secret in a response: ${seen.slice(0, 3).join(' | ')}`);
      });

      await runner.case('secret-leak sweep: no secret value in any file of CCCC_HOME outside state/secrets, in the daemon log and output, or in any response', 60_000, async () => {
        await daemon.stop();
        const secretsDir = join(box.home, 'state', 'secrets');
        const outsideStore = (path: string) => path === secretsDir || path.startsWith(secretsDir + '/');
        // The store holds them (the sweep is not vacuous), each file 0600.
        for (const [name, v] of Object.entries(secrets).filter(([name]) => !['refusedKey', 'unknownActor'].includes(name))) {
          const stored = filesContaining(secretsDir, v);
          check(stored.length > 0, `the ${name} secret is not in the secrets store`);
          for (const file of stored) check((statSync(join(secretsDir, file)).mode & 0o077) === 0, `${file} is readable by others`);
        }
        const leaks = values.flatMap((v) => [
          ...filesContaining(box.root, v, outsideStore).map((f) => `${v.slice(0, 24)}… in ${f}`),
          ...filesContaining(box.root, Buffer.from(v).toString('base64'), outsideStore).map((f) => `base64 of ${v.slice(0, 24)}… in ${f}`),
        ]);
        check(leaks.length === 0, () => `leaked: ${leaks.slice(0, 5).join('; ')}`);
        check(seen.length === 0, () => `a secret in a response: ${seen.slice(0, 3).join(' | ')}`);
        return `swept ${relative(box.root, box.home)}/ (but state/secrets), daemon.out and every response`;
      });
    } finally {
      await web.close();
      await daemon.stop();
    }
  },
};
