import { describe, expect, it } from 'vitest';
import { parseHookPayload } from './payloads.js';
import { sanitizeId, sanitizeToolName } from './privacy.js';

describe('privacy', () => {
  it('reduces tool names to ≤ 64 chars of [A-Za-z0-9_.:/-]', () => {
    expect(sanitizeToolName('mcp__github__search')).toBe('mcp__github__search');
    expect(sanitizeToolName('Bash(rm -rf /; echo "x")')).toBe('Bashrm-rf/echox');
    expect(sanitizeToolName('a'.repeat(100))).toHaveLength(64);
    expect(sanitizeToolName('émoji 🙂')).toBe('moji');
    expect(sanitizeToolName('   ')).toBeNull();
    expect(sanitizeToolName(42)).toBeNull();
  });

  it('keeps ids only when short and printable', () => {
    expect(sanitizeId('toolu_01')).toBe('toolu_01');
    expect(sanitizeId('a b')).toBeNull();
    expect(sanitizeId('x'.repeat(257))).toBeNull();
  });

  it('never carries prompts, commands, tool inputs/outputs or notification text', () => {
    const secret = 'SECRET-PROMPT-TEXT';
    const parsed = parseHookPayload('claude', {
      hook_event_name: 'PreToolUse',
      session_id: 's',
      prompt: secret,
      tool_name: 'Bash',
      tool_input: { command: secret },
      tool_response: { stdout: secret },
      message: secret,
      tool_use_id: 'tu1',
    });
    expect(JSON.stringify(parsed)).not.toContain(secret);
    expect(parsed).toMatchObject({ value: { toolName: 'Bash', toolUseId: 'tu1', event: 'PreToolUse' } });
  });

  it('names the failing field of a bad payload', () => {
    expect(parseHookPayload('codex', { hook_event_name: 'Nope', session_id: 's' })).toMatchObject({ error: expect.stringContaining('hook_event_name') });
    expect(parseHookPayload('codex', { hook_event_name: 'Stop' })).toMatchObject({ error: expect.stringContaining('session_id') });
    expect(parseHookPayload('codex', 'x')).toHaveProperty('error');
  });

  it('takes the turn identity from turn_id (codex) or prompt_id (claude)', () => {
    const body = { hook_event_name: 'UserPromptSubmit', session_id: 's', turn_id: 'T', prompt_id: 'P' };
    expect(parseHookPayload('codex', body)).toMatchObject({ value: { turnId: 'T' } });
    expect(parseHookPayload('claude', body)).toMatchObject({ value: { turnId: 'P' } });
  });
});
