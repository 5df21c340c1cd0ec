import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import type { StreamingModelConfig } from '../models/manifest.js';
import type { HostReply, HostRequest } from './host-protocol.js';
import type { Waveform } from './pcm.js';

/** The model an engine loads: an installed directory and the recognizer layout its manifest gave. */
export interface LoadableModel {
  readonly model_id: string;
  readonly dir: string;
  readonly recognizer: StreamingModelConfig;
  readonly sample_rate: number;
}

/** What the engine knows about itself, for service_runtime / health.service. */
export interface EngineState {
  /** The native binding answered a probe in the host process. */
  readonly binding_loaded: boolean;
  readonly version?: string;
  /** The model the recognizer is built from, when one is. */
  readonly loaded_model_id?: string;
  readonly last_error?: { code: string; message: string };
}

export interface LocalAsrEngineOptions {
  /** Path of the built host script; found next to the package's dist by default. */
  readonly hostPath?: string;
  readonly numThreads?: number;
  /** Bound on one request to the host (load, transcribe, a stream step). */
  readonly requestTimeoutMs?: number;
}

type NoId<T> = T extends unknown ? Omit<T, 'id'> : never;

function defaultHostPath(): string {
  const candidates = ['./asr-host.js', '../../dist/asr-host.js'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  return candidates.find((p) => existsSync(p)) ?? candidates[0]!;
}

/**
 * Service-local ASR (`assistant_service_local_asr`): sherpa-onnx in a host process. Nothing is
 * started until a caller needs the engine; a host that dies is reported (with its signal) and
 * replaced on the next use. One utterance transcription at a time: a second one fails fast with
 * asr_busy, as the spec allows for HTTP uploads.
 */
export class LocalAsrEngine {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private nextStream = 1;
  private readonly pending = new Map<number, { resolve: (r: HostReply) => void; timer: NodeJS.Timeout }>();
  private state: EngineState = { binding_loaded: false };
  private transcribing = false;

  constructor(private readonly options: LocalAsrEngineOptions = {}) {}

  get current(): EngineState {
    return this.state;
  }

  private host(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(this.options.hostPath ?? defaultHostPath(), [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr = (stderr + String(d)).slice(-2000)));
    child.on('message', (reply: HostReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(reply.id);
      p.resolve(reply);
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      const message = `ASR host exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().split('\n').slice(-2).join(' | ')}` : ''}`;
      this.state = { binding_loaded: this.state.binding_loaded, ...(this.state.version ? { version: this.state.version } : {}), last_error: { code: 'asr_backend_closed', message } };
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.resolve({ id, ok: false, error: { code: 'asr_backend_closed', message } });
      }
      this.pending.clear();
    });
    // The host never keeps its parent alive: a pending request's timeout timer does while it waits.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    this.child = child;
    return child;
  }

  private async call(req: NoId<HostRequest>): Promise<Extract<HostReply, { ok: true }>> {
    const id = this.nextId++;
    const child = this.host();
    const reply = await new Promise<HostReply>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ id, ok: false, error: { code: 'asr_backend_timeout', message: `ASR host did not answer ${req.op} in time` } });
      }, this.options.requestTimeoutMs ?? 120_000);
      this.pending.set(id, { resolve, timer });
      child.send({ ...req, id });
    });
    if (!reply.ok) throw voiceError(reply.error.code as never, reply.error.message);
    return reply;
  }

  /** Load the native binding in the host and report its version (no model needed). */
  async probe(): Promise<EngineState> {
    try {
      const r = await this.call({ op: 'probe' });
      this.state = { ...this.state, binding_loaded: true, version: r.version! };
    } catch (err) {
      this.state = { ...this.state, binding_loaded: false, last_error: { code: (err as { code: string }).code, message: (err as Error).message } };
    }
    return this.state;
  }

  /** Build the recognizer from an installed model (replaces any loaded one). */
  async load(model: LoadableModel): Promise<void> {
    if (this.state.loaded_model_id === model.model_id && this.child) return;
    try {
      const r = await this.call({ op: 'load', modelDir: model.dir, recognizer: model.recognizer, sampleRate: model.sample_rate, numThreads: this.options.numThreads ?? 1 });
      this.state = { binding_loaded: true, version: r.version!, loaded_model_id: model.model_id };
    } catch (err) {
      const { loaded_model_id: _drop, ...rest } = this.state;
      this.state = { ...rest, last_error: { code: (err as { code: string }).code, message: (err as Error).message } };
      throw err;
    }
  }

  /** Transcribe one whole utterance (push-to-talk). */
  async transcribe(wave: Waveform): Promise<string> {
    if (this.transcribing) throw voiceError(VoiceErrorCodes.asrBusy, 'the recognizer is busy with another utterance');
    this.transcribing = true;
    try {
      return (await this.call({ op: 'transcribe', samples: wave.samples, sampleRate: wave.sampleRate })).text ?? '';
    } finally {
      this.transcribing = false;
    }
  }

  /** A live stream: feed audio as it comes, read the growing partial text, finish for the final. */
  async openStream(): Promise<AsrStream> {
    const stream = this.nextStream++;
    await this.call({ op: 'stream_open', stream });
    return {
      feed: async (wave) => {
        const r = await this.call({ op: 'stream_feed', stream, samples: wave.samples, sampleRate: wave.sampleRate });
        return { text: r.text ?? '', endpoint: r.endpoint === true };
      },
      finish: async () => (await this.call({ op: 'stream_finish', stream })).text ?? '',
    };
  }

  /** Stop the host process (daemon shutdown, tests). */
  close(): void {
    const child = this.child;
    this.child = undefined;
    child?.kill();
  }
}

export interface AsrStream {
  feed(wave: Waveform): Promise<{ text: string; endpoint: boolean }>;
  finish(): Promise<string>;
}
