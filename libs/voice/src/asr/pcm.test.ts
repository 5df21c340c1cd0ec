import { describe, expect, it } from 'vitest';
import { decodeAudio, decodeWav, encodeWav, pcm16ToFloat } from './pcm.js';

describe('audio decoding', () => {
  it('round-trips mono PCM16 WAV', () => {
    const pcm = Int16Array.from([0, 16384, -16384, 32767, -32768]);
    const wav = decodeWav(encodeWav(pcm, 16000));
    expect(wav.sampleRate).toBe(16000);
    expect(Array.from(wav.samples)).toEqual([0, 0.5, -0.5, 32767 / 32768, -1]);
  });

  it('refuses stereo / non-PCM WAV and odd PCM as invalid_audio', () => {
    const wav = encodeWav(Int16Array.from([1, 2]), 16000);
    wav.writeUInt16LE(2, 22); // channels = 2
    expect(() => decodeWav(wav)).toThrow(expect.objectContaining({ code: 'invalid_audio' }));
    expect(() => decodeWav(Buffer.from('hello world!'))).toThrow(expect.objectContaining({ code: 'invalid_audio' }));
    expect(() => pcm16ToFloat(new Uint8Array(3))).toThrow(expect.objectContaining({ code: 'invalid_audio' }));
  });

  it('takes raw PCM at the given rate and sniffs WAV by its header', () => {
    expect(decodeAudio(new Uint8Array(4), 'audio/pcm').samples.length).toBe(2);
    expect(decodeAudio(encodeWav(Int16Array.from([1]), 8000), 'application/octet-stream').sampleRate).toBe(8000);
  });
});
