import { voiceError, VoiceErrorCodes } from '../errors.js';

/** Audio as the recognizer takes it: mono float samples in [-1, 1] at a sample rate. */
export interface Waveform {
  readonly samples: Float32Array;
  readonly sampleRate: number;
}

/** Raw little-endian mono 16-bit PCM (the WebSocket frames and `audio/pcm` bodies) to floats. */
export function pcm16ToFloat(bytes: Uint8Array): Float32Array {
  if (bytes.length % 2 !== 0) throw voiceError(VoiceErrorCodes.invalidAudio, 'PCM16 audio has an odd byte count');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

const tag = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/**
 * A RIFF/WAVE file with a mono 16-bit PCM `fmt ` chunk. Anything else (stereo, float, compressed)
 * is `invalid_audio` rather than guessed at: a misread format would be transcribed as noise.
 */
export function decodeWav(bytes: Uint8Array): Waveform {
  if (bytes.length < 12 || tag(bytes, 0) !== 'RIFF' || tag(bytes, 8) !== 'WAVE') throw voiceError(VoiceErrorCodes.invalidAudio, 'not a RIFF/WAVE file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let sampleRate = 0;
  let fmtOk = false;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1 || channels !== 1 || bits !== 16) {
        throw voiceError(VoiceErrorCodes.invalidAudio, 'WAV must be mono 16-bit PCM', { format, channels, bits });
      }
      fmtOk = true;
    } else if (id === 'data') {
      if (!fmtOk) throw voiceError(VoiceErrorCodes.invalidAudio, 'WAV data chunk before its fmt chunk');
      const end = Math.min(bytes.length, body + size);
      return { samples: pcm16ToFloat(bytes.subarray(body, end - ((end - body) % 2))), sampleRate };
    }
    at = body + size + (size % 2);
  }
  throw voiceError(VoiceErrorCodes.invalidAudio, 'WAV has no data chunk');
}

/** Decode a push-to-talk body by its declared type: WAV, or raw PCM16 at `pcmRate`. */
export function decodeAudio(bytes: Uint8Array, mimeType: string, pcmRate = 16000): Waveform {
  const isWav = mimeType.includes('wav') || (bytes.length >= 12 && tag(bytes, 0) === 'RIFF');
  return isWav ? decodeWav(bytes) : { samples: pcm16ToFloat(bytes), sampleRate: pcmRate };
}

/** A mono 16-bit PCM WAV file of `samples` (tests and the fake-microphone fixture). */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVE', 8);
  head.write('fmt ', 12);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(sampleRate, 24);
  head.writeUInt32LE(sampleRate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}
