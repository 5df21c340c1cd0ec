import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { TortureDaemon } from '../daemon-process.js';
import { randomInt, type Family } from '../family.js';
import { expectCode, hostile, type Probe } from '../probes.js';
import { check } from '../runner.js';
import { Sandbox } from '../sandbox.js';
import { exchange, parseResponse, requestLine } from '../wire.js';
import { createGroup, mail } from './setup.js';

// Malformed, huge, deep and garbage input on the request line (IPC §4.2, §4.3, §5.1).

const MiB = 1024 * 1024;

function nested(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

/** Random hostile lines: raw bytes, truncated or bit-flipped requests, non-objects, broken UTF-8. */
function garbageLine(template: string): Buffer {
  switch (randomInt(0, 5)) {
    case 0:
      return Buffer.concat([randomBytes(randomInt(1, 2000)).filter((b) => b !== 0x0a), Buffer.from('\n')]);
    case 1:
      return Buffer.from(template.slice(0, randomInt(0, template.length - 1)) + '\n');
    case 2: {
      const bytes = Buffer.from(template);
      for (let i = 0; i < randomInt(1, 4); i++) bytes[randomInt(0, bytes.length - 1)] = randomInt(0x20, 0xff);
      return Buffer.concat([bytes, Buffer.from('\n')]);
    }
    case 3:
      return Buffer.from(['[]', '"ping"', '1e999', 'null', 'true', '{}', '{"v":1}', '[{"v":1,"op":"ping"}]', '\u0000', '{"v":1,"op":"ping","args":{}}}'][randomInt(0, 9)]! + '\n');
    case 4:
      // A lone surrogate and an overlong encoding inside an otherwise valid request.
      return Buffer.concat([Buffer.from('{"v":1,"op":"ping","args":{"x":"'), Buffer.from([0xed, 0xa0, 0x80, 0xc0, 0xaf]), Buffer.from('"}}\n')]);
    default:
      return Buffer.from(`{"v":1,"op":"${'\\u0000'.repeat(randomInt(1, 50))}","args":{}}\n`);
  }
}

export const inputFamily: Family = {
  name: 'input',
  async run(runner, profile) {
    using box = Sandbox.create('input');
    await using daemon = await TortureDaemon.start(box.home, box.daemonOutput);
    const gid = await createGroup(daemon.sock, 'input');
    const probe: Probe = { sock: daemon.sock, home: box.home };

    await runner.case('send with refs nested 2,000 / 5,000 / 100,000 levels: invalid_request {limit: json_depth, max: 64}, nothing appended', 60_000, async () => {
      for (const levels of [2_000, 5_000, 100_000]) {
        const what = `refs nested ${levels} levels`;
        const line = JSON.stringify({ v: 1, op: 'send', args: mail(gid, 'deep') }).replace(/}}$/, `,"refs":${nested(levels)}}}`) + '\n';
        expectCode(await hostile(probe, what, line), what, 'invalid_request', { limit: 'json_depth', max: 64 });
      }
      // Within the limit a send is served (the limit does not refuse honest nesting).
      const sane = JSON.stringify({ v: 1, op: 'send', args: mail(gid, 'ok') }).replace(/}}$/, `,"extra":${nested(60)}}}`) + '\n';
      await hostile(probe, 'nested 60 levels', sane, { mayAccept: true });
    });

    await runner.case('a request with 150,000 values: invalid_request {limit: json_nodes}, nothing appended', 30_000, async () => {
      const line = JSON.stringify({ v: 1, op: 'send', args: { ...mail(gid, 'wide'), refs: [] } }).replace('"refs":[]', `"refs":[${'0,'.repeat(150_000)}0]`) + '\n';
      expectCode(await hostile(probe, 'wide', line), 'wide', 'invalid_request', { limit: 'json_nodes', max: 100_000 });
    });

    await runner.case('a 17 MiB line without newline: invalid_request naming the limit, and the connection is closed', 60_000, async () => {
      const line = '{"v":1,"op":"send","args":{"text":"' + 'x'.repeat(17 * MiB);
      const outcome = await hostile(probe, '17 MiB line', line, { waitClose: true, timeoutMs: 30_000 });
      expectCode(outcome, '17 MiB line', 'invalid_request', { limit: 16 * MiB });
      check(outcome.closed, '17 MiB line: the connection stayed open');
    });

    await runner.case('a 15 MiB send (below the line limit) is served, its answer a bounded line', 60_000, async () => {
      const line = requestLine('send', mail(gid, 'y'.repeat(15 * MiB)));
      const reply = await exchange(daemon.sock, line, { timeoutMs: 30_000 });
      check(reply.line !== undefined, `no answer (${reply.error ?? 'timeout'})`);
      check(Buffer.byteLength(reply.line) < 4_000_000, `answer line of ${Buffer.byteLength(reply.line)} bytes (clients cap ~4,000,000)`);
      const response = parseResponse(reply.line);
      check(response.ok || response.error?.code !== 'internal_error', `internal_error: ${JSON.stringify(response.error)}`);
      return `${response.ok ? 'accepted' : `refused ${response.error?.code}`}, answer ${Buffer.byteLength(reply.line)} bytes in ${Math.round(reply.ms)} ms`;
    });

    await runner.case('invalid UTF-8 in a request line: invalid_request', 10_000, async () => {
      const line = Buffer.concat([Buffer.from('{"v":1,"op":"send","args":{"group_id":"' + gid + '","to":["peer1"],"message_mode":"mail","text":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}\n')]);
      expectCode(await hostile(probe, 'invalid UTF-8', line), 'invalid UTF-8', 'invalid_request');
    });

    await runner.case('envelope: v 2, v "1", no v, op not a string, unknown top-level field, args not an object are refused', 20_000, async () => {
      const envelopes: Array<[string, unknown]> = [
        ['v: 2', { v: 2, op: 'ping', args: {} }],
        ['v: "1"', { v: '1', op: 'ping', args: {} }],
        ['no v', { op: 'ping', args: {} }],
        ['v: 1.0000001', { v: 1.0000001, op: 'ping', args: {} }],
        ['op: 5', { v: 1, op: 5, args: {} }],
        ['op: ""', { v: 1, op: '', args: {} }],
        ['op: ["ping"]', { v: 1, op: ['ping'], args: {} }],
        ['unknown op', { v: 1, op: 'no_such_op', args: {} }],
        ['op: "__proto__"', { v: 1, op: '__proto__', args: {} }],
        ['op: "constructor"', { v: 1, op: 'constructor', args: {} }],
        ['op: "toString"', { v: 1, op: 'toString', args: {} }],
        ['unknown top-level field', { v: 1, op: 'ping', args: {}, id: 7 }],
        ['args: []', { v: 1, op: 'send', args: [] }],
        ['args: "x"', { v: 1, op: 'send', args: 'x' }],
        ['args: 5', { v: 1, op: 'ping', args: 5 }],
      ];
      for (const [what, envelope] of envelopes) {
        const outcome = await hostile(probe, what, JSON.stringify(envelope) + '\n');
        check(outcome.response && !outcome.response.ok, `${what}: not refused`);
      }
      // A v: 2 send in particular must not reach the ledger (checked by hostile), with the v-1 code.
      const v2 = await hostile(probe, 'v: 2 send', JSON.stringify({ v: 2, op: 'send', args: mail(gid, 'v2') }) + '\n');
      expectCode(v2, 'v: 2 send', 'invalid_request');
    });

    await runner.case('CRLF line ends, blank lines and 100 pipelined pings: one answer per line, in order', 20_000, async () => {
      const crlf = await hostile(probe, 'CRLF ping', '{"v":1,"op":"ping","args":{}}\r\n', { mayAccept: true });
      check(crlf.response !== undefined, 'CRLF ping not answered');
      // Two blank lines (each refused as not JSON), then 100 pings written at once.
      const answers = (await pipelined(daemon.sock, '\n\n' + Array.from({ length: 100 }, () => '{"v":1,"op":"ping","args":{}}\n').join(''), 102)).map(parseResponse);
      check(answers.length === 102, `${answers.length} answers to 2 blank lines and 100 pipelined pings`);
      check(answers.slice(0, 2).every((a) => a.error?.code === 'invalid_request'), 'a blank line was not refused as invalid_request');
      check(answers.slice(2).every((a) => a.ok), 'a pipelined ping failed');
      return `CRLF ping ${crlf.response.ok ? 'served' : `refused ${crlf.response.error?.code}`}`;
    });

    await runner.case(`${profile.garbageLines} garbage lines (random bytes, truncated, bit-flipped, non-objects, broken UTF-8): never internal_error, nothing appended, ping < 1 s after each`, 180_000, async (signal) => {
      const template = requestLine('ledger_tail', { group_id: gid, limit: 3 }).trimEnd();
      const codes = new Map<string, number>();
      for (let i = 0; i < profile.garbageLines && !signal.aborted; i++) {
        // Bit flips of a read may still be a valid read: accepted is fine, appended is not.
        const outcome = await hostile(probe, `garbage #${i}`, garbageLine(template), { mayClose: true, mayAccept: true });
        const key = outcome.response ? (outcome.response.ok ? 'ok' : outcome.response.error!.code) : 'closed';
        codes.set(key, (codes.get(key) ?? 0) + 1);
      }
      return [...codes].map(([k, n]) => `${k} ${n}`).join(', ');
    });
  },
};

/** Write `payload` once on one connection and collect `count` answer lines. */
function pipelined(sock: string, payload: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(sock);
    let text = '';
    const timer = setTimeout(() => (socket.destroy(), resolve(text.split('\n').filter(Boolean))), 10_000);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const lines = text.split('\n').filter(Boolean);
      if (lines.length >= count && text.endsWith('\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(lines);
      }
    });
    socket.on('error', reject);
  });
}
