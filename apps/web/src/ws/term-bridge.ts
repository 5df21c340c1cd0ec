import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { DaemonClient, TermAttachment } from '@cccc/ipc-protocol/node';
import { jsonShapeViolation } from '@cccc/ipc-protocol';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { HttpError, toErrorResponse } from '../http/errors.js';
import { DrainGate } from './drain-gate.js';

// §8.4 terminal WebSocket: binary frames with a 1-byte ASCII opcode.
//   client → server: '0' input bytes, '2' resize {cols,rows}, '5' ack {cursor}
//   server → client: '1' PTY output, '3' handshake JSON, '4' input/resize error JSON,
//                    '6' {terminal_writable}, '7' snapshot (snapshot_v1, one frame)
export const OP = {
  input: 0x30,
  output: 0x31,
  resize: 0x32,
  handshake: 0x33,
  inputError: 0x34,
  ack: 0x35,
  writable: 0x36,
  snapshot: 0x37,
} as const;

export const TERM_PATH = /^\/api\/v1\/groups\/([^/]+)\/actors\/([^/]+)\/term$/;

export interface TermBridgeOptions {
  /** ack_v1: unacknowledged output allowed in flight before the daemon stream is paused. */
  readonly windowBytes?: number;
  /** How often writer ownership is re-checked (term_attachment_status) to emit opcode 6. */
  readonly writablePollMs?: number;
  /**
   * Output queued in the WebSocket for a browser that is not reading, past which the bridge stops
   * reading the daemon's stream (which then stops reading the terminal ring for this viewer)
   * until the browser drains it: a stuck viewer holds at most this much here. Default 1 MiB.
   */
  readonly maxBufferedBytes?: number;
}

const DEFAULT_WINDOW_BYTES = 256 * 1024;
const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

function frame(op: number, payload: Buffer | string | object): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return Buffer.concat([Buffer.from([op]), body]);
}

function intParam(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new HttpError(400, 'invalid_request', `query ${name} must be a non-negative integer`, { field: name });
  return n;
}

/** Refuse an upgrade with the normal JSON envelope over plain HTTP. */
export function rejectUpgrade(socket: Duplex, error: unknown): void {
  const { status, error: body } = toErrorResponse(error);
  const text = JSON.stringify({ ok: false, error: body });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Error'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/**
 * Bridges one browser WebSocket to one daemon `term_attach` stream. Resize goes over a separate
 * daemon connection with the attachment_id; writer changes are polled and pushed as opcode 6.
 */
export class TermBridge {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly live = new Set<WebSocket>();

  constructor(private readonly client: DaemonClient, private readonly options: TermBridgeOptions = {}) {}

  async handleUpgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    url: URL,
    gid: string,
    aid: string,
    admitted: () => boolean = () => true,
  ): Promise<void> {
    const mode = url.searchParams.get('mode');
    if (mode && mode !== 'control' && mode !== 'viewer') throw new HttpError(400, 'invalid_request', 'mode must be control or viewer', { field: 'mode' });
    const bootstrap = url.searchParams.get('bootstrap');
    const since = intParam(url, 'since');
    const cols = intParam(url, 'cols');
    const rows = intParam(url, 'rows');
    const takeover = url.searchParams.get('takeover');
    const ackFlow = url.searchParams.get('output_flow') === 'ack_v1';
    const attachment = await this.client.openTermAttach({
      group_id: gid,
      actor_id: aid,
      by: 'user',
      ...(mode ? { mode: mode as 'control' | 'viewer' } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(takeover === 'true' || takeover === '1' ? { takeover: true } : {}),
      ...(bootstrap === 'snapshot_v1' ? { bootstrap: 'snapshot_v1' as const } : {}),
      ...(cols !== undefined ? { cols } : {}),
      ...(rows !== undefined ? { rows } : {}),
    });
    if (socket.destroyed) {
      attachment.close();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.run(ws, attachment, gid, aid, ackFlow, admitted));
  }

  private run(ws: WebSocket, attachment: TermAttachment, gid: string, aid: string, ackFlow: boolean, admitted: () => boolean): void {
    this.live.add(ws);
    const hs = attachment.handshake;
    const windowBytes = this.options.windowBytes ?? DEFAULT_WINDOW_BYTES;
    let writable = hs.terminal_writable;
    const snapshotBytes = hs.initial_output?.kind === 'snapshot' ? hs.initial_output.bytes : 0;
    let cursor = hs.initial_output?.kind === 'snapshot' ? hs.initial_output.cursor : hs.replay_cursor;
    let acked = cursor;
    let paused = false;
    const maxBuffered = this.options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    // A browser that does not read: stop reading the daemon until the WebSocket has drained.
    const drain = new DrainGate(ws, attachment.socket, maxBuffered, () => paused);
    let pendingSnapshot: Buffer[] | undefined = snapshotBytes > 0 ? [] : undefined;
    let pendingSnapshotLength = 0;

    ws.send(
      frame(OP.handshake, {
        ...hs,
        ...(ackFlow ? { output_flow_control: { protocol: 'ack_v1', window_bytes: windowBytes } } : {}),
      }),
    );

    const sendOutput = (chunk: Buffer) => {
      if (chunk.length === 0 || ws.readyState !== ws.OPEN) return;
      ws.send(frame(OP.output, chunk));
      cursor += chunk.length;
      if (ackFlow && !paused && cursor - acked > windowBytes) {
        paused = true;
        attachment.socket.pause();
      }
      drain.check();
    };
    const onData = (chunk: Buffer) => {
      if (pendingSnapshot) {
        const need = snapshotBytes - pendingSnapshotLength;
        pendingSnapshot.push(chunk.subarray(0, need));
        pendingSnapshotLength += Math.min(need, chunk.length);
        if (pendingSnapshotLength < snapshotBytes) return;
        ws.send(frame(OP.snapshot, Buffer.concat(pendingSnapshot)));
        pendingSnapshot = undefined;
        chunk = chunk.subarray(need);
      }
      sendOutput(chunk);
    };

    const stop = () => {
      clearInterval(poll);
      drain[Symbol.dispose]();
      attachment.close();
      this.live.delete(ws);
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(1000, 'terminal stream ended');
    };
    if (attachment.initialBytes.length > 0) onData(attachment.initialBytes);
    attachment.socket.on('data', onData);
    attachment.socket.on('close', stop);
    attachment.socket.on('error', stop);
    attachment.socket.resume();

    const attachmentId = hs.attachment_id;
    const poll = setInterval(() => {
      // A revoked token ends the terminal session at the next poll.
      if (!admitted()) {
        ws.close(4401, 'unauthorized');
        return;
      }
      if (attachmentId === undefined) return;
      this.client
        .call('term_attachment_status', { group_id: gid, actor_id: aid, attachment_id: attachmentId })
        .then((s) => {
          if (s.terminal_writable !== writable && ws.readyState === ws.OPEN) {
            writable = s.terminal_writable;
            ws.send(frame(OP.writable, { terminal_writable: writable }));
          }
        })
        .catch(() => undefined);
    }, this.options.writablePollMs ?? 1000);
    poll.unref();

    ws.on('message', (data: RawData) => {
      const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (buf.length === 0) return;
      const op = buf[0]!;
      const payload = buf.subarray(1);
      if (op === OP.input) {
        if (!writable) {
          ws.send(frame(OP.inputError, { code: 'terminal_not_writer', message: 'this attachment is not the terminal writer' }));
          return;
        }
        attachment.socket.write(payload);
      } else if (op === OP.resize) {
        const size = parseJson(payload) as { cols?: unknown; rows?: unknown } | undefined;
        const cols = Number(size?.cols);
        const rows = Number(size?.rows);
        this.client
          .call('term_resize', { group_id: gid, actor_id: aid, cols, rows, ...(attachmentId !== undefined ? { attachment_id: attachmentId } : {}) })
          .catch((error: unknown) => {
            const { error: body } = toErrorResponse(error);
            if (ws.readyState === ws.OPEN) ws.send(frame(OP.inputError, { op: 'resize', ...body }));
          });
      } else if (op === OP.ack) {
        const ack = parseJson(payload) as { cursor?: unknown } | undefined;
        const c = Number(ack?.cursor);
        if (Number.isInteger(c) && c > acked) acked = Math.min(c, cursor);
        if (paused && cursor - acked <= windowBytes) {
          paused = false;
          if (!drain.holding) attachment.socket.resume();
        }
      } else {
        ws.send(frame(OP.inputError, { code: 'invalid_request', message: `unknown opcode ${String.fromCharCode(op)}` }));
      }
    });
    ws.on('close', stop);
    ws.on('error', stop);
  }

  close(): void {
    for (const ws of this.live) ws.terminate();
    this.wss.close();
  }
}

/** A control frame, or undefined when it is not JSON or exceeds the daemon's shape limits. */
function parseJson(buf: Buffer): unknown {
  const text = buf.toString('utf8');
  if (jsonShapeViolation(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
