import WebSocket from 'ws';
import {
  closeAction,
  gatewayConnectUrl,
  GATEWAY_INTENTS,
  GatewayOp,
  helloSchema,
  parseGatewayPayload,
  readySchema,
  type GatewayPayload,
} from './gateway-protocol.js';

/** What survives a dropped connection so the next one can RESUME where this one stopped. */
export interface GatewaySession {
  sessionId: string | undefined;
  resumeUrl: string | undefined;
  /** The last dispatch sequence number received; RESUME replays everything after it. */
  seq: number | null;
  botUserId: string | undefined;
}

export type GatewayEnd =
  | { readonly kind: 'aborted' }
  | { readonly kind: 'reconnect'; readonly ready: boolean; readonly delayed: boolean }
  | { readonly kind: 'auth_failed' }
  | { readonly kind: 'fatal'; readonly code: number };

export interface GatewayHandlers {
  readonly signal: AbortSignal;
  readonly token: string;
  /** Discord asks for a random 1–5 s wait before re-identifying after INVALID_SESSION. */
  readonly invalidSessionDelayMs: () => number;
  onDispatch(type: string, data: unknown): void;
  log(level: 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
}

/** Closing with a 4xxx code (not 1000/1001) keeps the session resumable. */
const RESUMABLE_CLOSE = 4000;

/**
 * Runs one gateway connection: HELLO → heartbeats (with ACK tracking to catch a zombie
 * connection) → IDENTIFY or RESUME → dispatches, until Discord asks us to reconnect, the
 * socket drops or the signal aborts. Updates `session` in place; leaves no timer or socket.
 */
export function runGatewayConnection(url: string, session: GatewaySession, handlers: GatewayHandlers): Promise<GatewayEnd> {
  const { signal } = handlers;
  if (signal.aborted) return Promise.resolve({ kind: 'aborted' });
  const socket = new WebSocket(gatewayConnectUrl(url));
  return new Promise<GatewayEnd>((resolve) => {
    let ended = false;
    let ready = false;
    let acked = true;
    let firstBeat: NodeJS.Timeout | undefined;
    let beats: NodeJS.Timeout | undefined;
    let invalidDelay: NodeJS.Timeout | undefined;

    const send = (payload: object): void => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
    };
    const finish = (end: GatewayEnd, closeCode = RESUMABLE_CLOSE): void => {
      if (ended) return;
      ended = true;
      clearTimeout(firstBeat);
      clearInterval(beats);
      clearTimeout(invalidDelay);
      signal.removeEventListener('abort', onAbort);
      socket.removeListener('message', onData);
      if (socket.readyState === WebSocket.OPEN) socket.close(closeCode);
      else if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      resolve(end);
    };
    const onAbort = (): void => finish({ kind: 'aborted' }, 1000);
    const heartbeat = (): void => {
      if (!acked) {
        handlers.log('warn', 'discord heartbeat not acknowledged; reconnecting');
        finish({ kind: 'reconnect', ready, delayed: false });
        return;
      }
      acked = false;
      send({ op: GatewayOp.Heartbeat, d: session.seq });
    };
    const startHeartbeats = (intervalMs: number): void => {
      // The first beat is jittered so many clients restarting together do not beat in step.
      firstBeat = setTimeout(() => {
        heartbeat();
        beats = setInterval(heartbeat, intervalMs);
      }, intervalMs * Math.random());
    };
    const identifyOrResume = (): void => {
      if (session.sessionId !== undefined) {
        send({ op: GatewayOp.Resume, d: { token: handlers.token, session_id: session.sessionId, seq: session.seq } });
        return;
      }
      send({
        op: GatewayOp.Identify,
        d: {
          token: handlers.token,
          intents: GATEWAY_INTENTS,
          properties: { os: process.platform, browser: 'cccc', device: 'cccc' },
        },
      });
    };
    const onDispatch = (payload: GatewayPayload): void => {
      if (typeof payload.s === 'number') session.seq = payload.s;
      if (payload.t === 'READY') {
        const readyData = readySchema.safeParse(payload.d);
        if (readyData.success) {
          session.sessionId = readyData.data.session_id;
          session.resumeUrl = readyData.data.resume_gateway_url;
          session.botUserId = readyData.data.user.id;
        }
        ready = true;
        handlers.log('info', 'discord gateway ready');
      } else if (payload.t === 'RESUMED') {
        ready = true;
        handlers.log('info', 'discord gateway resumed', { seq: session.seq });
      }
      if (payload.t) handlers.onDispatch(payload.t, payload.d);
    };
    const onData = (data: WebSocket.RawData): void => {
      const payload = parseGatewayPayload(data.toString());
      if (payload === null) return;
      switch (payload.op) {
        case GatewayOp.Hello: {
          const hello = helloSchema.safeParse(payload.d);
          if (!hello.success) return finish({ kind: 'reconnect', ready, delayed: false });
          startHeartbeats(hello.data.heartbeat_interval);
          identifyOrResume();
          return;
        }
        case GatewayOp.HeartbeatAck:
          acked = true;
          return;
        case GatewayOp.Heartbeat:
          send({ op: GatewayOp.Heartbeat, d: session.seq });
          return;
        case GatewayOp.Dispatch:
          onDispatch(payload);
          return;
        case GatewayOp.Reconnect:
          handlers.log('info', 'discord asked to reconnect');
          return finish({ kind: 'reconnect', ready, delayed: false });
        case GatewayOp.InvalidSession: {
          const resumable = payload.d === true;
          handlers.log('warn', 'discord invalidated the session', { resumable });
          if (!resumable) {
            session.sessionId = undefined;
            session.resumeUrl = undefined;
            session.seq = null;
          }
          invalidDelay = setTimeout(
            () => finish({ kind: 'reconnect', ready, delayed: true }),
            handlers.invalidSessionDelayMs(),
          );
          return;
        }
      }
    };

    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('message', onData);
    // 'error' is always followed by 'close'; keep the listener so ws never throws it unhandled.
    socket.on('error', (error) => handlers.log('warn', 'discord socket error', { error: error.message }));
    socket.on('close', (code) => {
      if (ended) return;
      const action = closeAction(code);
      if (action === 'auth_failed') return finish({ kind: 'auth_failed' });
      if (action === 'fatal') return finish({ kind: 'fatal', code });
      if (action === 'identify') {
        session.sessionId = undefined;
        session.resumeUrl = undefined;
        session.seq = null;
      }
      handlers.log('warn', 'discord gateway closed', { code, action });
      finish({ kind: 'reconnect', ready, delayed: false });
    });
  });
}
