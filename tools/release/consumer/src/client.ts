// A consumer's own small daemon client, built only on @cccc/ipc-protocol's public surface: the
// endpoint the daemon publishes, the NDJSON codec and the op catalog's schemas. It pings, opens an
// events_stream, sends a message, sees that message arrive on the stream, and then reads the same
// event back from the group's ledger with @cccc/ledger. Prints one JSON line for the release test.
import { createConnection, type Socket } from 'node:net';
import {
  DaemonResponseV1,
  EventStreamEventItem,
  MAX_RESPONSE_LINE_BYTES,
  NdjsonDecoder,
  opCatalog,
  type OpArgsInput,
  type OpName,
  type OpResult,
} from '@cccc/ipc-protocol';
import { discoverEndpoint, resolveCcccHome } from '@cccc/ipc-protocol/node';
import { openGroupLedger } from '@cccc/ledger';

/** One connection: a line queue over the codec. */
class Connection {
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;
  private closed = false;
  private readonly decoder = new NdjsonDecoder(MAX_RESPONSE_LINE_BYTES);

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const line of this.decoder.push(chunk)) {
        if (line.kind === 'line') this.lines.push(line.text);
        else socket.destroy(new Error(`bad line from the daemon: ${line.kind}`));
      }
      this.waiter?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
  }

  static open(home: string): Promise<Connection> {
    const endpoint = discoverEndpoint(home);
    const socket = endpoint.transport === 'unix' ? createConnection(endpoint.path) : createConnection(endpoint.port, endpoint.host);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  send(value: unknown): void {
    this.socket.write(`${JSON.stringify(value)}\n`);
  }

  async nextLine(): Promise<string> {
    while (this.lines.length === 0) {
      if (this.closed) throw new Error('the daemon closed the connection');
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
    return this.lines.shift()!;
  }

  close(): void {
    this.socket.destroy();
  }
}

class TinyClient {
  constructor(private readonly home: string) {}

  private async exchange(op: OpName, args: unknown): Promise<{ connection: Connection; result: unknown }> {
    const connection = await Connection.open(this.home);
    connection.send({ v: 1, op, args });
    const response = DaemonResponseV1.parse(JSON.parse(await connection.nextLine()));
    if (!response.ok) {
      connection.close();
      throw new Error(`${op}: ${response.error?.code}: ${response.error?.message}`);
    }
    return { connection, result: response.result };
  }

  /** A request and its typed, validated result. */
  async call<K extends OpName>(op: K, args: OpArgsInput<K>): Promise<OpResult<K>> {
    const { connection, result } = await this.exchange(op, args);
    connection.close();
    return opCatalog[op].result.parse(result) as OpResult<K>;
  }

  /** events_stream: the handshake answer, then one item per line until closed. */
  async openEvents(groupId: string): Promise<{ next(): Promise<unknown>; close(): void }> {
    const { connection } = await this.exchange('events_stream', { group_id: groupId, by: 'user' });
    return { next: async () => JSON.parse(await connection.nextLine()) as unknown, close: () => connection.close() };
  }
}

const home = resolveCcccHome();
const client = new TinyClient(home);
const ping = await client.call('ping', {});
const { groups } = await client.call('groups', {});
const [groupArg, to = '@all'] = process.argv.slice(2);
const groupId = groupArg ?? groups[0]?.group_id;
if (!groupId) throw new Error('no group: attach a directory first (`cccc attach .`)');

const events = await client.openEvents(groupId);
const text = `hello from a custom client (${process.pid})`;
const sent = await client.call('send', { group_id: groupId, text, by: 'user', to: [to], message_mode: 'send' });
let streamed = false;
const deadline = Date.now() + 20_000;
while (!streamed && Date.now() < deadline) {
  const item = EventStreamEventItem.safeParse(await events.next());
  streamed = item.success && item.data.event.id === sent.event.id;
}
events.close();

const ledger = await openGroupLedger({ home, groupId });
const stored = ledger.findById(sent.event.id);
const kinds = [...ledger.readForward()].map((event) => event.kind);
await ledger.close();

console.log(
  JSON.stringify({
    ping: { implementation: ping.implementation, version: ping.version, ipc_v: ping.ipc_v },
    groupId,
    sent: sent.event.id,
    streamed,
    stored: stored && { kind: stored.kind, by: stored.by, text: (stored.data as { text?: unknown }).text },
    kinds,
  }),
);
