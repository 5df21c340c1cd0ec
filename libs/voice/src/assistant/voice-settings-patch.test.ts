import { describe, expect, it } from 'vitest';
import { applyVoiceSettingsPatch, assertVoiceConfigPatch, voiceSecretaryActorFrom } from './voice-settings-patch.js';

describe('voice settings patch', () => {
  it('merges config over the stored one and the defaults, keeping other assistants', () => {
    const a = applyVoiceSettingsPatch({ other: { x: 1 }, voice_secretary: { enabled: false, config: { recognition_language: 'en-US' } } }, { config: { auto_document_min_chars: 100 } }, true);
    expect(a.other).toEqual({ x: 1 });
    expect(a.voice_secretary).toMatchObject({ enabled: true, config: { recognition_language: 'en-US', auto_document_min_chars: 100, recognition_backend: 'browser_asr' } });
  });

  it.each(['/abs', '../up', 'a/../b', '', 'C:/x'])('refuses document_default_dir %j', (dir) => {
    expect(() => assertVoiceConfigPatch({ document_default_dir: dir })).toThrow(expect.objectContaining({ code: 'invalid_request', details: { field: 'document_default_dir' } }));
  });

  it('accepts a relative document_default_dir', () => {
    expect(() => assertVoiceConfigPatch({ document_default_dir: 'docs/voice' })).not.toThrow();
  });

  it("copies the foreman's runtime configuration under the voice-secretary identity", () => {
    const actor = voiceSecretaryActorFrom({ id: 'lead', title: 'Lead', runtime: 'claude', command: ['claude'], env: { A: '1' }, submit: 'enter', profile_id: 'p', role: 'foreman', enabled: false }, 'now');
    expect(actor).toMatchObject({ id: 'voice-secretary', title: 'Voice Secretary', internal_kind: 'voice_secretary', runtime: 'claude', command: ['claude'], env: { A: '1' }, enabled: true, profile_id: '' });
    expect(actor).not.toHaveProperty('role');
  });
});
