import { describe, expect, it } from 'vitest';
import { DaemonResponseV1 } from '../envelope.js';
import { opCatalog } from '../ops/catalog.js';

/** A line-level client connection: raw bytes out, response lines in. */
export interface IpcContractConnection {
  send(raw: string | Uint8Array): Promise<void>;
  /** The next response line, or null when the peer closed the connection. */
  readLine(): Promise<string | null>;
  close(): void;
}

export type IpcContractCase =
  | 'ping'
  | 'envelope'
  | 'unknown_op'
  | 'ignored_args'
  | 'missing_group_id'
  | 'invalid_args'
  | 'owner_fence'
  | 'serial_lines'
  | 'garbage'
  | 'oversize_line';

export interface IpcContractOptions {
  readonly name: string;
  readonly connect: () => Promise<IpcContractConnection>;
  /** Cases to skip, each with the reason (printed in the test name). */
  readonly skip?: Partial<Record<IpcContractCase, string>>;
  /** The line limit the target enforces, to build an oversize line (default 16 MiB). */
  readonly maxLineBytes?: number;
  /** The pid `ping` must report (shutdown fence check). */
  readonly expectedPid?: number;
}

async function roundTrip(connect: () => Promise<IpcContractConnection>, raw: string | Uint8Array) {
  const conn = await connect();
  try {
    await conn.send(raw);
    const line = await conn.readLine();
    expect(line, 'a response line').not.toBeNull();
    return JSON.parse(line!) as Record<string, unknown>;
  } finally {
    conn.close();
  }
}

function expectError(response: Record<string, unknown>, code: string) {
  expect(DaemonResponseV1.safeParse(response).success).toBe(true);
  expect(response).toMatchObject({ v: 1, ok: false, result: {}, error: { code } });
  const error = response.error as Record<string, unknown>;
  expect(typeof error.message).toBe('string');
  expect(error.details).toBeTypeOf('object');
}

export function describeIpcContract(options: IpcContractOptions): void {
  const { connect } = options;
  const skip = options.skip ?? {};
  const test = (name: IpcContractCase, title: string, fn: () => Promise<void>, timeout?: number) => {
    const reason = skip[name];
    if (reason) it.skip(`${title} (skipped: ${reason})`, fn);
    else it(title, fn, timeout);
  };

  describe(`IPC v1 contract: ${options.name}`, () => {
    test('ping', 'ping returns every §8.1 field with error null', async () => {
      const res = await roundTrip(connect, '{"v":1,"op":"ping","args":{}}\n');
      expect(res).toMatchObject({ v: 1, ok: true, error: null });
      const result = opCatalog.ping.result.parse(res.result);
      expect(result.ipc_v).toBe(1);
      expect(result.pid).toBeGreaterThan(0);
      if (options.expectedPid) expect(result.pid).toBe(options.expectedPid);
      expect(Number.isNaN(Date.parse(result.ts))).toBe(false);
      expect(result.capabilities).toBeTypeOf('object');
      // args may be omitted entirely
      const bare = await roundTrip(connect, '{"v":1,"op":"ping"}\n');
      expect(bare.ok).toBe(true);
    });

    test('envelope', 'a malformed envelope answers invalid_request', async () => {
      const bad = [
        'not json',
        '[1,2]',
        '42',
        '"ping"',
        'null',
        '{"op":"ping"}',
        '{"v":2,"op":"ping"}',
        '{"v":"1","op":"ping"}',
        '{"v":1}',
        '{"v":1,"op":""}',
        '{"v":1,"op":7}',
        '{"v":1,"op":"ping","args":[]}',
        '{"v":1,"op":"ping","args":"x"}',
        '{"v":1,"op":"ping","args":null}',
        '{"v":1,"op":"ping","args":{},"id":3}',
        '{}',
      ];
      for (const line of bad) expectError(await roundTrip(connect, line + '\n'), 'invalid_request');
    });

    test('unknown_op', 'an unknown op answers unknown_op', async () => {
      expectError(await roundTrip(connect, '{"v":1,"op":"no_such_op_xyz","args":{}}\n'), 'unknown_op');
    });

    test('ignored_args', 'unknown arg keys are ignored', async () => {
      const res = await roundTrip(connect, '{"v":1,"op":"ping","args":{"whatever":1,"nested":{"a":[]}}}\n');
      expect(res).toMatchObject({ ok: true, error: null });
    });

    test('missing_group_id', 'a group-scoped op without group_id answers missing_group_id', async () => {
      expectError(await roundTrip(connect, '{"v":1,"op":"ledger_snapshot","args":{}}\n'), 'missing_group_id');
      expectError(await roundTrip(connect, '{"v":1,"op":"ledger_snapshot","args":{"group_id":"  "}}\n'), 'missing_group_id');
    });

    test('invalid_args', 'a mistyped argument answers invalid_request naming the field', async () => {
      const res = await roundTrip(connect, '{"v":1,"op":"shutdown","args":{"expected_pid":"abc"}}\n');
      expectError(res, 'invalid_request');
      expect((res.error as { details: { field: string } }).details.field).toBe('expected_pid');
    });

    test('owner_fence', 'shutdown with a foreign expected_pid answers daemon_owner_mismatch and keeps serving', async () => {
      const ping = await roundTrip(connect, '{"v":1,"op":"ping"}\n');
      const pid = (ping.result as { pid: number }).pid;
      const res = await roundTrip(connect, JSON.stringify({ v: 1, op: 'shutdown', args: { expected_pid: pid + 1 } }) + '\n');
      expectError(res, 'daemon_owner_mismatch');
      const again = await roundTrip(connect, '{"v":1,"op":"ping"}\n');
      expect(again.ok).toBe(true);
    });

    test('serial_lines', 'several lines on one connection get one response each, in order', async () => {
      const conn = await connect();
      try {
        await conn.send('{"v":1,"op":"ping"}\n{"v":1,"op":"nope_op"}\n');
        await conn.send('{"v":1,"op":"ping"}\n');
        const a = JSON.parse((await conn.readLine())!);
        const b = JSON.parse((await conn.readLine())!);
        const c = JSON.parse((await conn.readLine())!);
        expect([a.ok, b.ok, c.ok]).toEqual([true, false, true]);
        expect(b.error.code).toBe('unknown_op');
      } finally {
        conn.close();
      }
    });

    test('garbage', 'garbage bytes answer invalid_request and the connection stays usable', async () => {
      const conn = await connect();
      try {
        await conn.send(new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x0a]));
        expectError(JSON.parse((await conn.readLine())!), 'invalid_request');
        await conn.send(new Uint8Array([0x7b, 0x00, 0x01, 0x0a]));
        expectError(JSON.parse((await conn.readLine())!), 'invalid_request');
        await conn.send('{"v":1,"op":"ping"}\n');
        expect(JSON.parse((await conn.readLine())!).ok).toBe(true);
      } finally {
        conn.close();
      }
    });

    test(
      'oversize_line',
      'an oversize line answers invalid_request, then the connection closes',
      async () => {
        const limit = options.maxLineBytes ?? 16 * 1024 * 1024;
        const conn = await connect();
        try {
          const chunk = new Uint8Array(1024 * 1024).fill(0x61);
          const sending = (async () => {
            try {
              for (let sent = 0; sent <= limit + chunk.length; sent += chunk.length) await conn.send(chunk);
            } catch {
              // the daemon may close before we finish writing
            }
          })();
          const line = await conn.readLine();
          expectError(JSON.parse(line!), 'invalid_request');
          expect(await conn.readLine()).toBeNull();
          await sending;
        } finally {
          conn.close();
        }
        // the daemon is still fine
        const res = await roundTrip(connect, '{"v":1,"op":"ping"}\n');
        expect(res.ok).toBe(true);
      },
      60_000,
    );
  });
}
