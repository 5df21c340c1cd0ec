import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { DaemonClient } from '@cccc/ipc-protocol/node';
import { pcm16ToFloat, type AsrStream, type VoiceAsrService } from '@cccc/voice';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { HttpError } from '../http/errors.js';
import { asHttpError, heartbeatLease, requireEnabled, voiceGroupState } from './voice-gate.js';

export const VOICE_WS_PATH = /^\/api\/v1\/groups\/([^/]+)\/assistants\/voice_secretary\/transcriptions\/ws$/;

/** Spec §8.3: the ready event's segment duration, and the per-session byte cap (800 MiB). */
export const RECORDING_SEGMENT_DURATION_MS = 1_500_000;
export const MAX_SESSION_BYTES = 800 * 1024 * 1024;

export interface TranscriptionWsOptions {
  /** One binary frame at most (16 kHz PCM16: 64 KiB is 2 s of audio). */
  readonly maxFrameBytes?: number;
  readonly maxSessionBytes?: number;
  /** Wall-clock bound of one session (default 7 h 20 min, past the byte cap's 7 h 17 min). */
  readonly maxSessionMs?: number;
  /** How often the lease is revalidated while audio streams. */
  readonly leaseCheckMs?: number;
}

interface StartFrame {
  type: 'start';
  session_id?: string;
  capture_mode?: string;
  recognition_backend?: string;
  dispatch_target?: string;
  document_path?: string;
  language?: string;
}

/**
 * The service-local ASR transcription WebSocket: upgrade only for the holder of the recording
 * lease while service ASR is ready; a JSON start frame bound to the lease's capture scope; 16 kHz
 * mono PCM16 binary frames, spooled to an auto-deleted temp file and fed to the recognizer; each
 * endpoint's text is a final segment appended through assistant_voice_transcript_append; a JSON
 * stop finishes the stream, answers final_asr_text and closes.
 */
export class TranscriptionWs {
  private readonly live = new Set<WebSocket>();
  private readonly wss: WebSocketServer;

  constructor(
    private readonly client: DaemonClient,
    private readonly asr: VoiceAsrService,
    private readonly options: TranscriptionWsOptions = {},
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? 64 * 1024 });
  }

  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, gid: string): Promise<void> {
    const owner_id = url.searchParams.get('owner_id');
    const lease_id = url.searchParams.get('lease_id');
    let lease: Record<string, unknown>;
    let stream: AsrStream;
    let config: Awaited<ReturnType<typeof voiceGroupState>>['config'];
    try {
      const state = await voiceGroupState(this.client, gid);
      requireEnabled(state);
      lease = await heartbeatLease(this.client, gid, { owner_id, lease_id });
      config = state.config;
      stream = await this.asr.openStream(config);
    } catch (err) {
      throw asHttpError(err);
    }
    if (socket.destroyed) return;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.run(ws, gid, { owner_id: owner_id!, lease_id: lease_id! }, lease, stream));
  }

  private run(ws: WebSocket, gid: string, creds: { owner_id: string; lease_id: string }, lease: Record<string, unknown>, stream: AsrStream): void {
    this.live.add(ws);
    const sessionStart = Date.now();
    let start: StartFrame | undefined;
    let sessionId = '';
    let bytes = 0;
    let seq = 0;
    let spool: { dir: string; file: WriteStream } | undefined;
    const finals: Array<{ segment_id: string; text: string; persisted: boolean }> = [];
    let queue = Promise.resolve();
    let closed = false;

    const send = (event: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
    };
    const fail = (code: string, message: string, details: Record<string, unknown> = {}) => {
      send({ type: 'error', ok: false, error: { code, message, details } });
      ws.close(1008, code.slice(0, 100));
    };
    const cleanup = async () => {
      if (closed) return;
      closed = true;
      clearInterval(leaseTimer);
      clearTimeout(sessionTimer);
      this.live.delete(ws);
      spool?.file.destroy();
      if (spool) await rm(spool.dir, { recursive: true, force: true });
    };
    // Live finals flush the meeting window (meeting_window: they count toward the daemon's
    // input-batch idle review); the text at stop is the recording's stop flush
    // (service_transcript: an immediate idle review), sent even when stop adds no text.
    const appendFinal = async (text: string, at: 'live' | 'stop' = 'live') => {
      if (!text && at === 'live') return;
      const segment_id = text ? `seg_${String(++seq).padStart(4, '0')}` : `stop_${String(seq).padStart(4, '0')}`;
      let persisted = false;
      try {
        await this.client.call('assistant_voice_transcript_append', {
          group_id: gid,
          by: 'user',
          session_id: sessionId,
          segment_id,
          text,
          is_final: true,
          flush: true,
          ...(start?.document_path ? { document_path: start.document_path } : {}),
          ...(start?.language ? { language: start.language } : {}),
          trigger: { trigger_kind: at === 'stop' ? 'service_transcript' : 'meeting_window', mode: 'meeting', capture_mode: 'service', recognition_backend: 'assistant_service_local_asr' },
        });
        persisted = true;
      } catch (err) {
        send({ type: 'error', ok: false, error: { code: (err as { code?: string }).code ?? 'transcript_append_failed', message: (err as Error).message } });
      }
      if (!text) return;
      finals.push({ segment_id, text, persisted });
      send({ type: 'final', segment_id, text, transcript_persisted: persisted });
    };

    const leaseTimer = setInterval(() => {
      heartbeatLease(this.client, gid, creds).catch((err: unknown) => fail((err as HttpError).code ?? 'assistant_voice_recording_lease_lost', (err as Error).message));
    }, this.options.leaseCheckMs ?? 10_000);
    const sessionTimer = setTimeout(() => fail('recording_session_too_long', 'the transcription session passed its time bound'), this.options.maxSessionMs ?? 26_400_000);

    ws.on('message', (data: RawData, isBinary: boolean) => {
      queue = queue.then(async () => {
        if (closed) return;
        if (!isBinary) return this.onCommand(String(data), { lease, sessionStart, send, fail, stream, appendFinal, finals, done: () => ws.close(1000, 'stopped'), setStart: async (s) => {
          start = s;
          sessionId = s.session_id && /^[A-Za-z0-9_.-]{1,64}$/.test(s.session_id) ? s.session_id : `vs_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
          const dir = await mkdtemp(join(tmpdir(), 'cccc-voice-ws-'));
          spool = { dir, file: createWriteStream(join(dir, 'recording.pcm'), { mode: 0o600 }) };
          return sessionId;
        } });
        if (!start) return fail('asr_stream_not_started', 'send a start command before audio');
        const chunk = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
        bytes += chunk.length;
        if (bytes > (this.options.maxSessionBytes ?? MAX_SESSION_BYTES)) return fail('audio_too_large', 'the session passed its byte bound');
        if (chunk.length % 2 !== 0) return fail('invalid_audio', 'PCM16 frames carry an even number of bytes');
        spool!.file.write(chunk);
        const r = await stream.feed({ samples: pcm16ToFloat(chunk), sampleRate: 16000 });
        if (r.endpoint) await appendFinal(r.text);
        else if (r.text) send({ type: 'partial', text: r.text });
      }).catch((err: unknown) => fail((err as { code?: string }).code ?? 'asr_failed', (err as Error).message));
    });
    ws.on('close', () => void cleanup());
    ws.on('error', () => void cleanup());
  }

  private async onCommand(
    text: string,
    c: {
      lease: Record<string, unknown>;
      sessionStart: number;
      send: (e: Record<string, unknown>) => void;
      fail: (code: string, message: string, details?: Record<string, unknown>) => void;
      stream: AsrStream;
      appendFinal: (text: string, at?: 'live' | 'stop') => Promise<void>;
      finals: ReadonlyArray<{ segment_id: string; text: string; persisted: boolean }>;
      setStart: (s: StartFrame) => Promise<string>;
      done: () => void;
    },
  ): Promise<void> {
    let cmd: { type?: unknown } & Record<string, unknown>;
    try {
      cmd = JSON.parse(text) as typeof cmd;
    } catch {
      return c.fail('invalid_request', 'commands are JSON');
    }
    if (cmd.type === 'start') {
      // The start frame is bound to the lease's capture scope: a different one needs a new lease.
      for (const key of ['capture_mode', 'recognition_backend', 'dispatch_target'] as const) {
        const want = c.lease[key];
        if (want !== undefined && cmd[key] !== undefined && cmd[key] !== want) {
          return c.fail('assistant_voice_recording_lease_mismatch', `start ${key}=${String(cmd[key])} differs from the lease's ${String(want)}`, { field: key });
        }
      }
      const session_id = await c.setStart(cmd as unknown as StartFrame);
      return c.send({ type: 'ready', ok: true, session_id, sample_rate: 16000, recording_segment_duration_ms: RECORDING_SEGMENT_DURATION_MS });
    }
    if (cmd.type === 'stop') {
      await c.appendFinal(await c.stream.finish(), 'stop');
      const persisted = c.finals.every((f) => f.persisted);
      c.send({
        type: 'final_asr_text',
        ok: true,
        text: c.finals.map((f) => f.text).join(' '),
        segments: c.finals,
        transcript_persistence: persisted ? 'persisted' : 'failed',
        transcript_persisted: persisted,
      });
      c.send({ type: 'closed', ok: true, duration_ms: Date.now() - c.sessionStart });
      return c.done();
    }
    return c.fail('invalid_request', `unknown command ${String(cmd.type)}`);
  }

  close(): void {
    for (const ws of this.live) ws.terminate();
    this.wss.close();
  }
}
