import { decodeFrame, encodeInput, termUrl } from './term-protocol';

// The actor card's keys (^C, Esc, Enter) reach the agent's PTY through the terminal WebSocket,
// the one way input reaches it. When this page's terminal tab holds the actor's writer role the
// key goes through it; otherwise a short control attach without takeover and without a size (so
// it never resizes the PTY or takes another browser's control) writes the key and closes.

export const KEYS = { interrupt: '\x03', escape: '\x1b', enter: '\r' } as const;
export type KeyName = keyof typeof KEYS;

/** How long the short attach stays open after writing, so the bytes leave before it closes. */
const LINGER_MS = 300;
const TIMEOUT_MS = 10_000;

type Writer = (data: string) => boolean;
const writers = new Map<string, Writer>();
const keyOf = (groupId: string, actorId: string) => `${groupId}\0${actorId}`;

/** A terminal tab of this page offers its writer role (the writer answers false when it is not). */
export function registerWriter(groupId: string, actorId: string, write: Writer): () => void {
  const key = keyOf(groupId, actorId);
  writers.set(key, write);
  return () => {
    if (writers.get(key) === write) writers.delete(key);
  };
}

export class KeyRefused extends Error {}

export function sendKey(groupId: string, actorId: string, key: KeyName): Promise<void> {
  if (writers.get(keyOf(groupId, actorId))?.(KEYS[key])) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(termUrl(window.location, groupId, actorId, { mode: 'control' }));
    ws.binaryType = 'arraybuffer';
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        ws.close();
        reject(error);
      } else {
        setTimeout(() => ws.close(), LINGER_MS);
        resolve();
      }
    };
    const timer = setTimeout(() => settle(new Error('the terminal did not answer')), TIMEOUT_MS);
    ws.onmessage = (e) => {
      if (!(e.data instanceof ArrayBuffer)) return;
      const frame = decodeFrame(e.data);
      if (frame.op !== 'handshake') return;
      if (!frame.handshake.terminal_writable) return settle(new KeyRefused('another browser controls this terminal: take control in its terminal tab'));
      ws.send(encodeInput(KEYS[key]));
      settle();
    };
    ws.onclose = () => settle(new Error('cannot attach: is the actor running?'));
  });
}
