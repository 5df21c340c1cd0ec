import type { Socket } from 'node:net';
import { DaemonResponseV1, type DaemonRequestV1 } from '../envelope.js';
import { EventStreamItem } from '../events.js';
import { MAX_RESPONSE_LINE_BYTES } from '../limits.js';
import type { OpArgsInput, OpName, OpResult } from '../ops/catalog.js';
import { opCatalog } from '../ops/catalog.js';
import { TermAttachHandshake } from '../ops/streams.js';
import { BlobUploadOutcome } from '../ops/blobs.js';
import type { AttachmentRefV1 } from '../kinds/chat.js';
import { NdjsonDecoder } from '../codec.js';
import { exchangeWithDaemon } from './daemon-exchange.js';
import { discoverEndpoint } from './discover.js';
import type { DaemonEndpoint } from './endpoint.js';
import { DaemonCallError, DaemonTransportError } from './errors.js';
import { resolveCcccHome } from './home.js';
import type { ExchangedLine } from './line-exchange.js';
import { readFirstLine } from './read-line.js';

export interface DaemonClientOptions {
  /** Defaults to `CCCC_HOME` / `~/.cccc`. Ignored when `endpoint` is given. */
  readonly home?: string;
  /** A fixed endpoint instead of discovery (tests, tools). */
  readonly endpoint?: DaemonEndpoint;
  /** Per-call timeout for connect + response. */
  readonly timeoutMs?: number;
  readonly connectAttempts?: number;
  readonly connectRetryDelayMs?: number;
}

/** A live `events_stream`: an async iterable of stream items. */
export interface EventStream extends AsyncIterable<EventStreamItem>, AsyncDisposable {
  readonly handshake: Record<string, unknown>;
  close(): void;
}

/** A live `term_attach`: the handshake plus the raw terminal socket (§4.4). */
export interface TermAttachment extends AsyncDisposable {
  readonly handshake: TermAttachHandshake;
  /** Raw bytes received after the handshake line, before `socket` is read. */
  readonly initialBytes: Buffer;
  readonly socket: Socket;
  close(): void;
}

/**
 * The IPC v1 client: endpoint discovery per call, a fresh connection per call, a timeout, and no
 * automatic replay once request bytes were written (only connect failures are retried).
 */
export class DaemonClient {
  private readonly home: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: DaemonClientOptions = {}) {
    this.home = options.home ?? resolveCcccHome();
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  endpoint(): DaemonEndpoint {
    return this.options.endpoint ?? discoverEndpoint(this.home);
  }

  /** Call a catalog op; resolves with its result or rejects with DaemonCallError. */
  async call<K extends OpName>(op: K, args: OpArgsInput<K>): Promise<OpResult<K>> {
    const response = await this.request({ v: 1, op, args: args as Record<string, unknown> });
    if (!response.ok) throw new DaemonCallError(op, response.error!);
    return response.result as OpResult<K>;
  }

  /** Send any envelope and return the daemon's response, ok or not. */
  async request(request: DaemonRequestV1): Promise<DaemonResponseV1> {
    const { socket, line } = await this.exchange(request);
    socket.destroy();
    return this.parseResponse(request.op, line);
  }

  async openEventsStream(args: OpArgsInput<'events_stream'>): Promise<EventStream> {
    const { socket, result, rest } = await this.upgrade('events_stream', args as Record<string, unknown>);
    return eventStreamOver(socket, result, rest);
  }

  /** The group and actor change feed across all groups (`global_events_stream`). */
  async openGlobalEventsStream(args: OpArgsInput<'global_events_stream'> = {}): Promise<EventStream> {
    const { socket, result, rest } = await this.upgrade('global_events_stream', args as Record<string, unknown>);
    return eventStreamOver(socket, result, rest);
  }

  /**
   * A group's runtime activity (`runtime_activity_stream`): items `{t: "runtime-activity", event}`
   * (snapshot records first when `replay` is not false), heartbeats, and a final error item.
   */
  async openRuntimeActivityStream(args: OpArgsInput<'runtime_activity_stream'>): Promise<EventStream> {
    const { socket, result, rest } = await this.upgrade('runtime_activity_stream', args as Record<string, unknown>);
    return eventStreamOver(socket, result, rest);
  }

  /**
   * Store one file in the group blob store through the daemon (`blob_upload`): the handshake
   * checks the group and the size, then the raw bytes go over the same connection and the daemon
   * answers with the attachment record. Rejects with DaemonCallError (`file_too_large`, ...).
   * `content` may be a list of chunks (e.g. views of a request body), written in order uncopied.
   */
  async uploadBlob(args: { group_id: string; name: string; content: Uint8Array | readonly Uint8Array[]; by?: string }): Promise<AttachmentRefV1> {
    const chunks: readonly Uint8Array[] = args.content instanceof Uint8Array ? [args.content] : args.content;
    const bytes = chunks.reduce((n, c) => n + c.length, 0);
    const { socket } = await this.upgrade('blob_upload', { group_id: args.group_id, name: args.name, bytes, ...(args.by ? { by: args.by } : {}) });
    try {
      const reading = readFirstLine(socket, MAX_RESPONSE_LINE_BYTES, this.timeoutMs, 'blob_upload');
      for (const chunk of chunks) socket.write(chunk);
      const { line } = await reading;
      let outcome: BlobUploadOutcome;
      try {
        outcome = BlobUploadOutcome.parse(JSON.parse(line));
      } catch (cause) {
        throw new DaemonTransportError('protocol', 'blob_upload: malformed outcome line', true, { cause });
      }
      if (outcome.t === 'error') throw new DaemonCallError('blob_upload', { code: outcome.code, message: outcome.message, details: {} });
      return outcome.attachment;
    } finally {
      socket.destroy();
    }
  }

  /**
   * Download one stored blob (`blob_read`): its size from the handshake, then its bytes as they
   * arrive. `close()` abandons the download.
   */
  async readBlob(args: OpArgsInput<'blob_read'>): Promise<{ bytes: number; body: AsyncIterable<Buffer>; close(): void }> {
    const { socket, result, rest } = await this.upgrade('blob_read', args as Record<string, unknown>);
    const bytes = (result as { bytes: number }).bytes;
    async function* body(): AsyncGenerator<Buffer> {
      try {
        let left = bytes;
        if (rest.length > 0) {
          left -= rest.length;
          yield rest;
        }
        for await (const chunk of socket) {
          if (left <= 0) break;
          left -= (chunk as Buffer).length;
          yield chunk as Buffer;
        }
        if (left > 0) throw new DaemonTransportError('closed', `blob_read: connection closed ${left} bytes short`, true);
      } finally {
        socket.destroy();
      }
    }
    return { bytes, body: body(), close: () => socket.destroy() };
  }

  async openTermAttach(args: OpArgsInput<'term_attach'>): Promise<TermAttachment> {
    const { socket, result, rest } = await this.upgrade('term_attach', args as Record<string, unknown>);
    const handshake = TermAttachHandshake.parse(result);
    const close = (): void => {
      socket.destroy();
    };
    return { handshake, initialBytes: rest, socket, close, [Symbol.asyncDispose]: async () => close() };
  }

  private async upgrade(op: OpName, args: Record<string, unknown>) {
    if (!opCatalog[op].upgrade) throw new Error(`${op} is not a streaming op`);
    const { socket, line, rest } = await this.exchange({ v: 1, op, args });
    try {
      const response = this.parseResponse(op, line);
      if (!response.ok) throw new DaemonCallError(op, response.error!);
      return { socket, result: response.result, rest };
    } catch (err) {
      socket.destroy();
      throw err;
    }
  }

  /** The shared one-line exchange (also `callOp`'s); a daemon it cannot reach gets a hint. */
  private exchange(request: DaemonRequestV1): Promise<ExchangedLine> {
    return exchangeWithDaemon(this.endpoint(), request.op, JSON.stringify(request) + '\n', { ...this.options, timeoutMs: this.timeoutMs });
  }

  private parseResponse(op: string, line: string): DaemonResponseV1 {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new DaemonTransportError('protocol', `${op}: response is not valid JSON`, true, { cause });
    }
    const parsed = DaemonResponseV1.safeParse(value);
    if (!parsed.success) throw new DaemonTransportError('protocol', `${op}: malformed response envelope`, true);
    return parsed.data;
  }
}

function eventStreamOver(socket: Socket, handshake: Record<string, unknown>, rest: Buffer): EventStream {
  const decoder = new NdjsonDecoder(MAX_RESPONSE_LINE_BYTES);
  const queue: EventStreamItem[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const onChunk = (chunk: Uint8Array) => {
    for (const line of decoder.push(chunk)) {
      if (line.kind !== 'line') {
        ended = true;
        socket.destroy();
        break;
      }
      try {
        const item = EventStreamItem.safeParse(JSON.parse(line.text));
        if (item.success) queue.push(item.data);
      } catch {
        // A malformed item is skipped: streams are best-effort (§4.5).
      }
    }
    wake?.();
  };
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  if (rest.length > 0) onChunk(rest);
  socket.on('data', onChunk);
  socket.on('close', onEnd);
  socket.on('error', onEnd);
  socket.resume();
  const close = () => {
    ended = true;
    socket.destroy();
    wake?.();
  };
  return {
    handshake,
    close,
    async [Symbol.asyncDispose]() {
      close();
    },
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          while (queue.length > 0) yield queue.shift()!;
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      } finally {
        close();
      }
    },
  };
}
