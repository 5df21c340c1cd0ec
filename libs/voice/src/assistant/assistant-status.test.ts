import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { durableHealth, updateAssistantsFile, withVoiceStatus } from './assistant-status.js';

describe('voice status in state/assistants.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'voice-status-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('drops live process observations from the durable health', () => {
    expect(durableHealth({ actor: { running: true }, pid: 4, port: 9, service: { ready: true } })).toEqual({ service: { ready: true } });
  });

  it('replaces lifecycle / health and keeps every other record, rust_state included', async () => {
    mkdirSync(join(dir, 'state'), { recursive: true });
    writeFileSync(join(dir, 'state', 'assistants.json'), JSON.stringify({ rust_state: { x: 1 }, sessions: [{ session_id: 's' }], voice_secretary: { lifecycle: 'idle', note: 'kept' } }));
    await updateAssistantsFile(dir, (doc) => withVoiceStatus(doc, 'working', { pid: 3, queue: 2 }, '2026-12-02T00:00:00.000Z'));
    const doc = JSON.parse(readFileSync(join(dir, 'state', 'assistants.json'), 'utf8'));
    expect(doc).toEqual({
      rust_state: { x: 1 },
      sessions: [{ session_id: 's' }],
      assistant: { assistant_id: 'voice_secretary', lifecycle: 'working', health: { queue: 2 }, note: 'kept', updated_at: '2026-12-02T00:00:00.000Z' },
    });
  });

  it('a throwing mutation writes nothing', async () => {
    const before = readFileSync(join(dir, 'state', 'assistants.json'), 'utf8');
    await expect(
      updateAssistantsFile(dir, () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(readFileSync(join(dir, 'state', 'assistants.json'), 'utf8')).toBe(before);
  });
});
