import WebSocket from 'ws';
import { parseSocketFrame } from './events.js';

/** Why one Socket Mode connection ended; the adapter decides how soon to open the next. */
export type ConnectionEnd = 'aborted' | 'disconnect' | 'closed' | 'stale';

export interface SocketConnectionHandlers {
  readonly signal: AbortSignal;
  /**
   * How often we ping Slack. A ping still unanswered at the next one means the connection is
   * half-open (no close ever arrives on a dead network path), so it is cut and replaced.
   */
  readonly pingIntervalMs: number;
  onHello(): void;
  /**
   * Called for every envelope in arrival order. `ack` sends `{envelope_id}` on this
   * connection if it is still open (Slack redelivers unacknowledged envelopes otherwise).
   */
  onEnvelope(event: unknown, ack: () => void): void;
  onDisconnect(reason: string): void;
  onSocketError(message: string): void;
}

/**
 * Runs one Socket Mode WebSocket until Slack asks us to reconnect (`disconnect`), the socket
 * drops, or the signal aborts. Always leaves the socket closed and its listeners removed.
 */
export function runSocketConnection(url: string, handlers: SocketConnectionHandlers): Promise<ConnectionEnd> {
  const { signal } = handlers;
  if (signal.aborted) return Promise.resolve('aborted');
  const socket = new WebSocket(url);
  return new Promise<ConnectionEnd>((resolve) => {
    let ended = false;
    let pongPending = false;
    const pings = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (pongPending) return finish('stale');
      pongPending = true;
      socket.ping();
    }, handlers.pingIntervalMs);
    const finish = (end: ConnectionEnd): void => {
      if (ended) return;
      ended = true;
      clearInterval(pings);
      signal.removeEventListener('abort', onAbort);
      socket.removeListener('message', onData);
      // A graceful close for a live socket; a handshake in progress or a stale link is cut.
      if (socket.readyState === WebSocket.OPEN && end !== 'stale') socket.close(1000);
      else if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
      resolve(end);
    };
    const onAbort = (): void => finish('aborted');
    const ack = (envelopeId: string) => (): void => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ envelope_id: envelopeId }));
    };
    const onData = (data: WebSocket.RawData): void => {
      const frame = parseSocketFrame(data.toString());
      switch (frame.kind) {
        case 'hello':
          handlers.onHello();
          return;
        case 'disconnect':
          handlers.onDisconnect(frame.reason);
          finish('disconnect');
          return;
        case 'envelope':
          handlers.onEnvelope(frame.event, ack(frame.envelopeId));
          return;
        case 'unknown':
          return;
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('message', onData);
    socket.on('pong', () => {
      pongPending = false;
    });
    // 'error' is always followed by 'close'; keep the listener so ws never throws it unhandled.
    socket.on('error', (error) => handlers.onSocketError(error.message));
    socket.on('close', () => finish('closed'));
  });
}
