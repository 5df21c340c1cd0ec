import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrashAccount, verifyCursors, verifyWrites, type MailCursorSeen } from '../accounting.js';
import { TortureDaemon } from '../daemon-process.js';
import { randomInt, sleep, type Family } from '../family.js';
import { activeLedger, readLedger } from '../ledger-files.js';
import { check } from '../runner.js';
import { Sandbox } from '../sandbox.js';
import { exchange, ok, parseResponse, requestLine } from '../wire.js';
import { createGroup, mail } from './setup.js';

// kill -9 under concurrent writers (client_id sends) and a Mail reader (inbox_read): after each
// crash and restart, every acknowledged event is in the ledger exactly once (unanswered sends are
// retried with their client_id), the active file has no torn tail, and the Mail cursor never
// goes back.

interface MailRead {
  messages: Array<{ id: string }>;
  cursor: MailCursorSeen;
}

export const crashFamily: Family = {
  name: 'crash',
  async run(runner, profile) {
    using box = Sandbox.create('crash');
    let daemon = await TortureDaemon.start(box.home, box.daemonOutput);
    const account = new CrashAccount();
    const tornTails: string[] = [];
    let gid = '';
    try {
      gid = await createGroup(daemon.sock, 'crash');
      const send = (clientId: string) => exchange(daemon.sock, requestLine('send', mail(gid, `torture ${clientId}`, { client_id: clientId })), { timeoutMs: 5000 });

      const writer = async (w: number, stop: () => boolean, next: () => number) => {
        while (!stop()) {
          const clientId = `w${w}-${next()}`;
          account.sent(clientId);
          const reply = await send(clientId);
          if (reply.line === undefined) return; // the daemon died with this send in flight
          const response = parseResponse(reply.line);
          if (!response.ok) account.violations.push(`send ${clientId} refused: ${JSON.stringify(response.error)}`);
          else account.ack(clientId, (response.result as { event: { id: string } }).event.id);
        }
      };
      const reader = async (cycle: number, stop: () => boolean) => {
        while (!stop()) {
          const reply = await exchange(daemon.sock, requestLine('inbox_read', { group_id: gid, actor_id: 'peer1', limit: 7 }), { timeoutMs: 5000 });
          if (reply.line === undefined) return;
          const response = parseResponse(reply.line);
          if (!response.ok) account.violations.push(`inbox_read refused: ${JSON.stringify(response.error)}`);
          else {
            const read = response.result as MailRead;
            account.read(read.messages.map((m) => m.id), read.cursor, `read in cycle ${cycle}`);
          }
          await sleep(15);
        }
      };
      // Forced rotations all along (each seals the active file and gzips the one before): a crash
      // lands in a rotation's steps too, and what it sealed must survive as acknowledged sends do.
      let rotations = 0;
      const rotator = async (stop: () => boolean) => {
        while (!stop()) {
          await sleep(randomInt(40, 160));
          const reply = await exchange(daemon.sock, requestLine('ledger_compact', { group_id: gid, force: true, reason: 'torture crash' }), { timeoutMs: 10_000 });
          if (reply.line === undefined) return;
          const response = parseResponse(reply.line);
          if (response.ok && (response.result as { rotated?: boolean }).rotated) rotations++;
        }
      };
      const sequences = new Map<number, number>();
      let retried = 0;

      await runner.case(`kill -9 at random times: ${profile.crashCycles} crashes under ${profile.crashWriters} writers, a Mail reader and forced rotations`, 240_000, async (signal) => {
        for (let cycle = 1; cycle <= profile.crashCycles && !signal.aborted; cycle++) {
          let stopped = false;
          const stop = () => stopped || signal.aborted;
          const loops = [
            ...Array.from({ length: profile.crashWriters }, (_, w) =>
              writer(w, stop, () => {
                const n = (sequences.get(w) ?? 0) + 1;
                sequences.set(w, n);
                return n;
              }),
            ),
            reader(cycle, stop),
            rotator(stop),
          ];
          await sleep(randomInt(150, 900));
          await daemon.kill9();
          stopped = true;
          await Promise.all(loops);
          const torn = readLedger(box.home, gid).tornTailBytes;
          if (torn > 0) tornTails.push(`cycle ${cycle}: ${torn} bytes after the last newline`);

          daemon = await TortureDaemon.start(box.home, box.daemonOutput);
          const peek = await ok<MailRead>(daemon.sock, 'inbox_peek', { group_id: gid, actor_id: 'peer1', limit: 1000 });
          account.peek(peek.messages.map((m) => m.id), peek.cursor, `peek after restart ${cycle}`);
          // Sends whose answer the crash swallowed: the same client_id again, answered with the
          // original event when it was appended, appended now when it was not.
          for (const clientId of [...account.unanswered]) {
            retried++;
            const reply = await send(clientId);
            check(reply.line !== undefined, `retry of ${clientId} after restart ${cycle} not answered`);
            const response = parseResponse(reply.line);
            check(response.ok, `retry of ${clientId} refused: ${JSON.stringify(response.error)}`);
            account.ack(clientId, (response.result as { event: { id: string } }).event.id);
          }
        }
        check(account.violations.length === 0, () => account.violations.slice(0, 5).join('; '));
        check(rotations > 0, 'no forced rotation completed between the crashes');
        return `${account.acked.size} sends acknowledged (${retried} retried after a crash swallowed the answer), ${account.consumedCount} mails consumed, ${rotations} rotations`;
      });

      await runner.case('every acknowledged send is in the ledger exactly once (kill -9 cycles)', 30_000, async () => {
        const { events } = readLedger(box.home, gid);
        const problems = verifyWrites(account, events, (e) => (e.kind === 'chat.message' ? (e.data['client_id'] as string | undefined) : undefined));
        check(problems.length === 0, () => `${problems.length} problems: ${problems.slice(0, 5).join('; ')}`);
        // The daemon's own view agrees with the file (its derived index rebuilt or caught up).
        const tail = await ok<{ events: Array<{ id: string }> }>(daemon.sock, 'ledger_tail', { group_id: gid, kinds: ['chat.message'], limit: 1000 });
        const inFile = new Set(events.filter((e) => e.kind === 'chat.message').map((e) => e.id));
        const unknown = tail.events.filter((e) => !inFile.has(e.id));
        check(unknown.length === 0, `ledger_tail shows ${unknown.length} events the file does not have`);
      });

      await runner.case('no torn tail and no damaged line after any crash; ledger_snapshot reads it all', 30_000, async () => {
        check(tornTails.length === 0, () => tornTails.join('; '));
        const { damaged } = readLedger(box.home, gid);
        check(damaged.length === 0, () => `${damaged.length} damaged lines, first: ${damaged[0]}`);
        check(readFileSync(activeLedger(box.home, gid), 'utf8').endsWith('\n'), 'ledger.jsonl does not end with a newline');
        await ok(daemon.sock, 'ledger_snapshot', { group_id: gid });
      });

      await runner.case('after the crashes, a rotation brings the manifest in line with every sealed segment on disk', 60_000, async () => {
        await ok(daemon.sock, 'ledger_compact', { group_id: gid, force: true, reason: 'torture check' }, 30_000);
        const ledgerDir = join(box.home, 'groups', gid, 'state', 'ledger');
        const onDisk = readdirSync(join(ledgerDir, 'segments'))
          .filter((name) => /\.jsonl(\.gz)?$/.test(name))
          .map((name) => `state/ledger/segments/${name}`)
          .sort();
        const manifest = JSON.parse(readFileSync(join(ledgerDir, 'manifest.json'), 'utf8')) as { segments: Array<{ path: string }> };
        const listed = manifest.segments.map((m) => m.path).sort();
        check(JSON.stringify(listed) === JSON.stringify(onDisk), () => `manifest lists ${listed.length} segments, disk has ${onDisk.length}: ${onDisk.filter((p) => !listed.includes(p)).slice(0, 3).join(', ')}`);
        return `${onDisk.length} sealed segments`;
      });

      await runner.case('Mail cursor never goes back across crashes (inbox_read consumption)', 30_000, async () => {
        const { events } = readLedger(box.home, gid);
        const problems = [...account.violations.filter((v) => v.includes('cursor')), ...verifyCursors(account, events)];
        check(account.cursors.length > profile.crashCycles, `only ${account.cursors.length} cursor observations`);
        check(problems.length === 0, () => problems.slice(0, 5).join('; '));
        return `${account.cursors.length} cursor observations`;
      });
    } finally {
      await daemon.stop();
    }
  },
};
