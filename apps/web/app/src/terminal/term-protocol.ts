// The terminal WebSocket framing (REFERENCE_NOTES §8.4, daemon-ipc-v1 §8.11): binary frames with
// a one-byte ASCII opcode. Pure so it can be tested without a browser.

export const OP = {
  input: 0x30, // '0' client → server: input bytes
  output: 0x31, // '1' server → client: raw PTY output (advances the raw cursor)
  resize: 0x32, // '2' client → server: {cols, rows} (control writer only)
  handshake: 0x33, // '3' server → client: the term_attach handshake JSON
  inputError: 0x34, // '4' server → client: an input or resize refusal JSON
  ack: 0x35, // '5' client → server: {cursor} once xterm parsed the output (ack_v1)
  writable: 0x36, // '6' server → client: {terminal_writable}
  snapshot: 0x37, // '7' server → client: the snapshot_v1 screen, one frame, no cursor space
} as const;

export interface TermHandshake {
  readonly group_id: string;
  readonly actor_id: string;
  readonly attachment_id?: number;
  readonly terminal_mode: 'control' | 'viewer';
  readonly terminal_writable: boolean;
  readonly writer_replaced: boolean;
  readonly replay_cursor: number;
  readonly replay_end_cursor: number;
  readonly initial_output?: { kind: 'replay' | 'snapshot'; bytes: number; cursor: number; cols?: number; rows?: number };
  readonly output_flow_control?: { protocol: 'ack_v1'; window_bytes: number };
}

export type ServerFrame =
  | { op: 'output'; data: Uint8Array }
  | { op: 'snapshot'; data: Uint8Array }
  | { op: 'handshake'; handshake: TermHandshake }
  | { op: 'inputError'; error: { code?: string; message?: string; op?: string } }
  | { op: 'writable'; writable: boolean }
  | { op: 'unknown'; code: number };

const utf8 = new TextEncoder();
const text = new TextDecoder();

function frame(op: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(body.length + 1);
  out[0] = op;
  out.set(body, 1);
  return out;
}

const json = (op: number, value: unknown) => frame(op, utf8.encode(JSON.stringify(value)));

export const encodeInput = (data: string | Uint8Array) => frame(OP.input, typeof data === 'string' ? utf8.encode(data) : data);
export const encodeResize = (cols: number, rows: number) => json(OP.resize, { cols, rows });
export const encodeAck = (cursor: number) => json(OP.ack, { cursor });

function parseJson(body: Uint8Array): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text.decode(body));
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function decodeFrame(buf: ArrayBuffer | Uint8Array): ServerFrame {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  const body = bytes.subarray(1);
  switch (bytes[0]) {
    case OP.output:
      return { op: 'output', data: body };
    case OP.snapshot:
      return { op: 'snapshot', data: body };
    case OP.handshake:
      return { op: 'handshake', handshake: parseJson(body) as unknown as TermHandshake };
    case OP.inputError:
      return { op: 'inputError', error: parseJson(body) };
    case OP.writable:
      return { op: 'writable', writable: parseJson(body).terminal_writable === true };
    default:
      return { op: 'unknown', code: bytes[0] ?? -1 };
  }
}

/** The WebSocket URL for one attach; the access token travels in the HttpOnly cookie. */
export function termUrl(
  location: { protocol: string; host: string },
  groupId: string,
  actorId: string,
  opts: { mode: 'control' | 'viewer'; takeover?: boolean; cols?: number; rows?: number },
): string {
  const qs = new URLSearchParams({ mode: opts.mode, bootstrap: 'snapshot_v1', output_flow: 'ack_v1' });
  if (opts.takeover) qs.set('takeover', 'true');
  if (opts.cols && opts.rows) {
    qs.set('cols', String(opts.cols));
    qs.set('rows', String(opts.rows));
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/v1/groups/${encodeURIComponent(groupId)}/actors/${encodeURIComponent(actorId)}/term?${qs}`;
}
