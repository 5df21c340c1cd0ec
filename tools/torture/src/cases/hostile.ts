import { randomBytes } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { TortureDaemon } from '../daemon-process.js';
import type { Family } from '../family.js';
import { hostile, type Probe } from '../probes.js';
import { check } from '../runner.js';
import { Sandbox } from '../sandbox.js';
import { filesContaining, treeChanges, treeSnapshot } from '../tree.js';
import { ok, parseResponse, pingWithin, requestLine } from '../wire.js';
import { createGroup, mail } from './setup.js';

// Hostile group / actor / profile ids, blob names and paths: refused (never internal_error),
// nothing created outside CCCC_HOME, no byte of a file outside the scope copied in, no crash.

/** Ids that name a place instead of a thing. `outside` is the sandbox directory beside the home. */
function hostileIds(outside: string): Array<[string, string]> {
  return [
    ['../outside', '../outside'],
    ['../../outside', '../../outside'],
    ['../../../outside/escape', '../../../outside/escape'],
    ['..', '..'],
    ['.', '.'],
    ['/', '/'],
    ['absolute path', join(outside, 'escape')],
    ['a/b', 'a/b'],
    ['backslash', '..\\..\\outside'],
    ['5,000 chars', 'g'.repeat(5000)],
    ['NUL', 'g_1\u0000../../outside'],
    ['newline', 'g_1\n../outside'],
    ['percent-encoded', '..%2f..%2foutside'],
    ['256 chars', 'a'.repeat(256)],
    ['emoji', '😀'],
    ['blank', ' '],
  ];
}

export const hostileFamily: Family = {
  name: 'hostile',
  async run(runner) {
    using box = Sandbox.create('hostile');
    const marker = `TORTURE-OUTSIDE-${randomBytes(12).toString('hex')}`;
    writeFileSync(join(box.outside, 'secret.txt'), marker);
    const scope = join(box.root, 'scope');
    mkdirSync(scope);
    writeFileSync(join(scope, 'inside.txt'), 'a file of the scope\n');
    symlinkSync(join(box.outside, 'secret.txt'), join(scope, 'link-out.txt'));
    symlinkSync(box.outside, join(scope, 'dir-link'));
    symlinkSync(scope, join(box.root, 'scope-link'));

    await using daemon = await TortureDaemon.start(box.home, box.daemonOutput);
    const gid = await createGroup(daemon.sock, 'hostile');
    await ok(daemon.sock, 'attach', { path: scope, group_id: gid });
    const probe: Probe = { sock: daemon.sock, home: box.home };
    const before = treeSnapshot(box.root, [box.home, box.daemonOutput]);
    const ids = hostileIds(box.outside);

    await runner.case(`hostile group ids (${ids.length}) in 20 ops: refused, never internal_error, nothing appended`, 120_000, async () => {
      for (const [name, id] of ids) {
        const requests: Array<[string, Record<string, unknown>]> = [
          ['group_show', { group_id: id }],
          ['group_update', { group_id: id, patch: { title: 'x' } }],
          ['group_delete', { group_id: id }],
          ['group_use', { group_id: id, path: scope }],
          ['attach', { path: scope, group_id: id }],
          ['actor_add', { group_id: id, actor_id: 'a1', runtime: 'custom', command: ['cat'] }],
          ['send', mail(id, 'x')],
          ['ledger_tail', { group_id: id }],
          ['ledger_compact', { group_id: id, force: true }],
          ['ledger_snapshot', { group_id: id }],
          ['inbox_read', { group_id: id, actor_id: 'peer1' }],
          ['group_preamble_set', { group_id: id, content: 'x' }],
          ['actor_notes_set', { group_id: id, target_actor_id: 'peer1', content: 'x' }],
          ['context_sync', { group_id: id, ops: [] }],
          ['events_stream', { group_id: id }],
          ['blob_read', { group_id: id, name: `${'0'.repeat(64)}_x.txt` }],
          ['actor_env_private_update', { group_id: id, actor_id: 'peer1', set: { K: 'v' } }],
          ['group_settings_update', { group_id: id, patch: { default_send_to: 'foreman' } }],
          ['group_start', { group_id: id }],
          ['runtime_hook_event', { group_id: id, actor_id: 'peer1', runtime: 'claude', launch_token: 'x', payload: {} }],
        ];
        for (const [op, args] of requests) await hostile(probe, `${op} group_id ${name}`, requestLine(op, args));
      }
    });

    await runner.case('hostile actor ids in 12 ops: refused (a blank one gets a generated id), never internal_error, nothing appended', 120_000, async () => {
      for (const [name, id] of ids) {
        // A blank id asks for a generated one; a stored id must never be the hostile one.
        const added = await hostile(probe, `actor_add actor_id ${name}`, requestLine('actor_add', { group_id: gid, actor_id: id, runtime: 'custom', command: ['cat'] }), { mayAccept: id.trim() === '' });
        if (added.response?.ok) {
          const stored = (added.response.result as { actor: { id: string } }).actor.id;
          check(/^[A-Za-z0-9_-]{1,64}$/.test(stored), `actor_add stored the actor id ${JSON.stringify(stored).slice(0, 80)}`);
          await ok(daemon.sock, 'actor_remove', { group_id: gid, actor_id: stored });
        }
        const requests: Array<[string, Record<string, unknown>]> = [
          ['actor_update', { group_id: gid, actor_id: id, patch: { title: 'x' } }],
          ['actor_remove', { group_id: gid, actor_id: id }],
          ['actor_start', { group_id: gid, actor_id: id }],
          ['inbox_read', { group_id: gid, actor_id: id }],
          ['actor_env_private_update', { group_id: gid, actor_id: id, set: { K: 'v' } }],
          ['actor_notes_set', { group_id: gid, target_actor_id: id, content: 'x' }],
          ['group_help_get', { group_id: gid, actor_id: id }],
          ['terminal_tail', { group_id: gid, actor_id: id }],
          ['term_attach', { group_id: gid, actor_id: id }],
          ['runtime_hook_event', { group_id: gid, actor_id: id, runtime: 'claude', launch_token: 'x', payload: {} }],
        ];
        for (const [op, args] of requests) await hostile(probe, `${op} actor_id ${name}`, requestLine(op, args));
        // A blank recipient is dropped (the default audience applies); any other is refused.
        await hostile(probe, `send to ${name}`, requestLine('send', { ...mail(gid, 'x'), to: [id] }), { mayAccept: id.trim() === '' });
      }
    });

    await runner.case('hostile profile ids (get, upsert, delete, secrets, copies): refused, never internal_error', 60_000, async () => {
      for (const [name, id] of ids) {
        const requests: Array<[string, Record<string, unknown>]> = [
          ['actor_profile_get', { profile_id: id }],
          ['actor_profile_delete', { profile_id: id }],
          ['actor_profile_secret_keys', { profile_id: id }],
          ['actor_profile_secret_update', { profile_id: id, set: { K: 'v' } }],
          ['actor_profile_secret_copy_from_actor', { profile_id: id, group_id: gid, actor_id: 'peer1' }],
          ['actor_profile_secret_copy_from_profile', { profile_id: 'ap_none', source_profile_id: id }],
        ];
        for (const [op, args] of requests) await hostile(probe, `${op} profile_id ${name}`, requestLine(op, args));
        // An upsert may pick its own id; one that keeps a hostile id must be refused.
        const upsert = await hostile(probe, `actor_profile_upsert id ${name}`, requestLine('actor_profile_upsert', { profile: { id, name: 'p', runtime: 'custom', command: ['cat'] } }), { mayAccept: true });
        if (upsert.response?.ok) {
          const stored = (upsert.response.result as { profile: { id: string } }).profile.id;
          check(stored !== id || /^[A-Za-z0-9_-]{1,128}$/.test(id), `actor_profile_upsert stored the hostile id ${JSON.stringify(id).slice(0, 60)}`);
        }
      }
    });

    await runner.case('hostile blob names: blob_read refused; blob_upload stores under the group only', 60_000, async () => {
      for (const name of ['../../group.yaml', '../../../outside/secret.txt', `${'a'.repeat(64)}_../../x`, '/etc/passwd', `${'0'.repeat(64)}_\u0000`, '..', 'x'.repeat(256)]) {
        await hostile(probe, `blob_read ${JSON.stringify(name)}`, requestLine('blob_read', { group_id: gid, name }));
      }
      for (const name of ['../../../outside/uploaded.txt', join(box.outside, 'abs.txt'), 'a/../../b.txt', '\u0000.txt']) {
        const stored = await upload(daemon.sock, gid, name, Buffer.from('uploaded bytes\n'));
        check(!stored || !stored.includes('..'), `blob_upload ${JSON.stringify(name)} stored at ${stored}`);
        await pingWithin(daemon.sock, 1000);
      }
    });

    await runner.case('hostile paths: attach (relative, absolute, file, NUL, 5,000 chars, symlinked scope) and send_files (../, absolute, symlinks out of the scope): no file outside the scope read in', 60_000, async () => {
      const attachPaths = ['../outside', 'outside/../../', '/nonexistent/torture', join(box.outside, 'secret.txt'), `${scope}\u0000/x`, 'x'.repeat(5000), '/proc/self/cwd', join(box.root, 'scope-link'), join(box.outside, 'missing', 'deeper')];
      for (const path of attachPaths) {
        // Attaching a real directory is allowed; what it may not do is write outside the home.
        await hostile(probe, `attach ${JSON.stringify(path).slice(0, 80)}`, requestLine('attach', { path }), { mayAccept: true });
      }
      // The group's active scope is `scope` again (an attach above may have moved it).
      await ok(daemon.sock, 'attach', { path: scope, group_id: gid });
      const sendPaths = ['../outside/secret.txt', join(box.outside, 'secret.txt'), 'link-out.txt', 'dir-link/secret.txt', '/etc/passwd', 'inside.txt\u0000', 'x'.repeat(5000), '.', 'dir-link'];
      for (const path of sendPaths) {
        await hostile(probe, `send_files ${JSON.stringify(path).slice(0, 80)}`, requestLine('send_files', { group_id: gid, paths: [path], to: ['peer1'], message_mode: 'mail' }));
      }
      // The honest file still goes through (the refusals above are about the paths, not the op).
      await ok(daemon.sock, 'send_files', { group_id: gid, paths: ['inside.txt'], to: ['peer1'], message_mode: 'mail' });
    });

    await runner.case('after all of it: nothing created or changed outside CCCC_HOME, no outside byte inside it, same daemon', 30_000, async () => {
      const changes = treeChanges(before, treeSnapshot(box.root, [box.home, box.daemonOutput]));
      check(changes.length === 0, () => `outside CCCC_HOME: ${changes.slice(0, 5).join('; ')}`);
      const copies = filesContaining(box.home, marker);
      check(copies.length === 0, () => `the outside file's content is inside CCCC_HOME: ${copies.join(', ')}`);
      const ping = await ok<{ pid: number }>(daemon.sock, 'ping', {});
      check(ping.pid === daemon.pid && daemon.running, 'the daemon is not the one started for this family');
    });
  },
};

/** blob_upload: the handshake, then the bytes; resolves with the stored path, or undefined when refused. */
function upload(sock: string, gid: string, name: string, bytes: Buffer): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(sock);
    let text = '';
    let handshaken = false;
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`blob_upload ${name}: no outcome`))), 10_000);
    const done = (value: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(requestLine('blob_upload', { group_id: gid, name, bytes: bytes.length })));
    socket.on('data', (chunk: string) => {
      text += chunk;
      let nl: number;
      while ((nl = text.indexOf('\n')) !== -1) {
        const line = text.slice(0, nl);
        text = text.slice(nl + 1);
        const response = parseResponse(line.startsWith('{"t"') ? JSON.stringify({ v: 1, ok: true, result: JSON.parse(line) }) : line);
        if (!handshaken) {
          if (!response.ok) return done(undefined);
          handshaken = true;
          socket.write(bytes);
        } else {
          const outcome = response.result as { t: string; attachment?: { path: string } };
          return done(outcome.t === 'stored' ? outcome.attachment!.path : undefined);
        }
      }
    });
    socket.on('error', (error) => (clearTimeout(timer), reject(error)));
  });
}
