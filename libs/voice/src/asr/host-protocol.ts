import type { StreamingModelConfig } from '../models/manifest.js';

/** Messages between the daemon and the ASR host process (one request, one reply, by id). */
export type HostRequest =
  | { id: number; op: 'probe' }
  | { id: number; op: 'load'; modelDir: string; recognizer: StreamingModelConfig; sampleRate: number; numThreads: number }
  | { id: number; op: 'transcribe'; samples: Float32Array; sampleRate: number }
  | { id: number; op: 'stream_open'; stream: number }
  | { id: number; op: 'stream_feed'; stream: number; samples: Float32Array; sampleRate: number }
  | { id: number; op: 'stream_finish'; stream: number };

export type HostReply =
  | { id: number; ok: true; version?: string; text?: string; endpoint?: boolean }
  | { id: number; ok: false; error: { code: string; message: string } };
