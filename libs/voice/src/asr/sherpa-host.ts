/**
 * The ASR host: a child process that owns the sherpa-onnx native recognizer. It is a separate
 * process rather than a worker_thread because the native library aborts the whole process on a
 * model file it cannot parse (onnxruntime throws through C); here that ends only this host, and
 * the daemon reports the crash in health instead of dying. Decoding is CPU-bound and synchronous
 * in the binding, so it never runs on the daemon's event loop either way.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { HostReply, HostRequest } from './host-protocol.js';

interface OnlineStream {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface OnlineRecognizer {
  createStream(): OnlineStream;
  isReady(s: OnlineStream): boolean;
  decode(s: OnlineStream): void;
  isEndpoint(s: OnlineStream): boolean;
  getResult(s: OnlineStream): { text: string };
  reset(s: OnlineStream): void;
}
interface Sherpa {
  version: string;
  OnlineRecognizer: new (config: unknown) => OnlineRecognizer;
}

let sherpa: Sherpa | undefined;
let recognizer: OnlineRecognizer | undefined;
const streams = new Map<number, OnlineStream>();

function binding(): Sherpa {
  sherpa ??= createRequire(import.meta.url)('sherpa-onnx-node') as Sherpa;
  return sherpa;
}

function modelConfig(dir: string, r: Extract<HostRequest, { op: 'load' }>['recognizer'], numThreads: number): Record<string, unknown> {
  const f = (name: string) => join(dir, name);
  const common = { tokens: f(r.tokens), numThreads, provider: 'cpu', debug: 0 };
  switch (r.type) {
    case 'transducer':
      return { ...common, transducer: { encoder: f(r.encoder), decoder: f(r.decoder), joiner: f(r.joiner) } };
    case 'paraformer':
      return { ...common, paraformer: { encoder: f(r.encoder), decoder: f(r.decoder) } };
    case 'zipformer2_ctc':
      return { ...common, zipformer2Ctc: { model: f(r.model) } };
    case 'tone_ctc':
      return { ...common, toneCtc: { model: f(r.model) } };
  }
}

function drain(rec: OnlineRecognizer, s: OnlineStream): void {
  while (rec.isReady(s)) rec.decode(s);
}

function loaded(): OnlineRecognizer {
  if (!recognizer) throw Object.assign(new Error('no model loaded'), { code: 'asr_runtime_not_ready' });
  return recognizer;
}

function handle(req: HostRequest): Omit<Extract<HostReply, { ok: true }>, 'id' | 'ok'> {
  switch (req.op) {
    case 'probe':
      return { version: binding().version };
    case 'load': {
      const s = binding();
      recognizer = new s.OnlineRecognizer({
        featConfig: { sampleRate: req.sampleRate, featureDim: 80 },
        modelConfig: modelConfig(req.modelDir, req.recognizer, req.numThreads),
        decodingMethod: 'greedy_search',
        enableEndpoint: true,
      });
      return { version: s.version };
    }
    case 'transcribe': {
      const rec = loaded();
      const st = rec.createStream();
      st.acceptWaveform({ samples: req.samples, sampleRate: req.sampleRate });
      // Trailing silence lets the streaming model flush its last frames before input ends.
      st.acceptWaveform({ samples: new Float32Array(Math.round(req.sampleRate * 0.5)), sampleRate: req.sampleRate });
      st.inputFinished();
      drain(rec, st);
      return { text: rec.getResult(st).text.trim() };
    }
    case 'stream_open':
      streams.set(req.stream, loaded().createStream());
      return {};
    case 'stream_feed': {
      const rec = loaded();
      const st = streams.get(req.stream);
      if (!st) throw Object.assign(new Error(`no stream ${req.stream}`), { code: 'asr_stream_not_started' });
      st.acceptWaveform({ samples: req.samples, sampleRate: req.sampleRate });
      drain(rec, st);
      const text = rec.getResult(st).text.trim();
      // At an endpoint (a pause) the segment is final: the stream starts the next one afresh.
      const endpoint = rec.isEndpoint(st);
      if (endpoint) rec.reset(st);
      return { text, endpoint };
    }
    case 'stream_finish': {
      const rec = loaded();
      const st = streams.get(req.stream);
      if (!st) throw Object.assign(new Error(`no stream ${req.stream}`), { code: 'asr_stream_not_started' });
      st.inputFinished();
      drain(rec, st);
      streams.delete(req.stream);
      return { text: rec.getResult(st).text.trim() };
    }
  }
}

process.on('message', (req: HostRequest) => {
  let reply: HostReply;
  try {
    reply = { id: req.id, ok: true, ...handle(req) };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    reply = { id: req.id, ok: false, error: { code: e.code ?? 'asr_backend_failed', message: e.message ?? String(err) } };
  }
  process.send!(reply);
});
process.on('disconnect', () => process.exit(0));
