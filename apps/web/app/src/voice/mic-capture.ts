/**
 * The microphone under a recording: getUserMedia, a level meter (so the view shows that audio is
 * really arriving), and, for service ASR, 16 kHz mono PCM16 frames for the transcription socket.
 */
export interface MicCapture {
  /** The current input level, 0..1 (RMS of the last analysed block). */
  level(): number;
  /** The device the browser picked. */
  readonly label: string;
  stop(): void;
}

const TARGET_RATE = 16000;

/** Float samples at `from` Hz → PCM16 at 16 kHz (linear pick; speech needs nothing finer here). */
function toPcm16(input: Float32Array, from: number): ArrayBuffer {
  const ratio = from / TARGET_RATE;
  const out = new Int16Array(Math.floor(input.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const s = Math.max(-1, Math.min(1, input[Math.floor(i * ratio)] ?? 0));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out.buffer;
}

export async function startMicCapture(onPcm?: (frame: ArrayBuffer) => void): Promise<MicCapture> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1 } });
  const ctx = new AudioContext();
  const source = ctx.createMediaStreamSource(stream);
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 2048;
  source.connect(analyser);
  // ScriptProcessor is old but everywhere; a frame of 4096 samples at 48 kHz is ~85 ms of audio.
  const proc = ctx.createScriptProcessor(4096, 1, 1);
  proc.onaudioprocess = (e) => onPcm?.(toPcm16(e.inputBuffer.getChannelData(0), ctx.sampleRate));
  source.connect(proc);
  proc.connect(ctx.destination);
  const buf = new Float32Array(analyser.fftSize);
  return {
    label: stream.getAudioTracks()[0]?.label ?? 'microphone',
    level() {
      analyser.getFloatTimeDomainData(buf);
      let sum = 0;
      for (const v of buf) sum += v * v;
      return Math.sqrt(sum / buf.length);
    },
    stop() {
      proc.disconnect();
      source.disconnect();
      for (const t of stream.getTracks()) t.stop();
      void ctx.close();
    },
  };
}
