import { describe, expect, it } from 'vitest';
import { isKnownKind, kindDataSchema } from './registry.js';

const KINDS = ['assistant.status.update', 'assistant.settings.update', 'assistant.voice.document', 'assistant.voice.session', 'assistant.voice.request', 'assistant.voice.prompt_draft'];

describe('assistant.* kinds', () => {
  it('every kind the Voice Secretary ops append is typed', () => {
    for (const k of KINDS) expect(isKnownKind(k), k).toBe(true);
  });

  it('validates their data (assistant_id and the action / status each names)', () => {
    expect(kindDataSchema('assistant.voice.prompt_draft')!.safeParse({ assistant_id: 'voice_secretary', request_id: 'r', action: 'ack', status: 'applied', extra: 1 }).success).toBe(true);
    expect(kindDataSchema('assistant.voice.prompt_draft')!.safeParse({ assistant_id: 'voice_secretary', action: 'ack', status: 'applied' }).success).toBe(false);
    expect(kindDataSchema('assistant.voice.document')!.safeParse({ assistant_id: 'voice_secretary' }).success).toBe(false);
    expect(kindDataSchema('assistant.status.update')!.safeParse({ assistant_id: 'voice_secretary', lifecycle: 'idle', health: {} }).success).toBe(true);
    expect(kindDataSchema('assistant.settings.update')!.safeParse({ assistant_id: 'voice_secretary' }).success).toBe(false);
    expect(kindDataSchema('assistant.voice.session')!.safeParse({ assistant_id: 'voice_secretary', session_id: 's', event: 'diarization_ready' }).success).toBe(true);
  });
});
