import { describe, expect, it } from 'vitest';
import { RUNTIME_HOOK_PAYLOAD_KEYS, opCatalog } from '@cccc/ipc-protocol';
import { typedMark } from '@cccc/ipc-protocol/node';
import { PAYLOAD_FIELDS, missingIdentity, pickStatePayload, readStateAnswer, stateRequestLine } from './state-payload.js';

const args = opCatalog.runtime_hook_event.args;
const env = { CCCC_HOME: '/h', CCCC_GROUP_ID: 'g_1', CCCC_ACTOR_ID: 'peer1', CCCC_HOOK_LAUNCH_TOKEN: 'tok' };

describe('the hand-written hook payload check mirrors the op catalog', () => {
  it('copies exactly the catalog payload keys', () => {
    expect(Object.keys(PAYLOAD_FIELDS).sort()).toEqual([...RUNTIME_HOOK_PAYLOAD_KEYS].sort());
  });

  it('accepts what the catalog accepts and rejects what it rejects, at every limit', () => {
    for (const [key, rule] of Object.entries(PAYLOAD_FIELDS)) {
      for (const len of [rule.min - 1, rule.min, rule.max, rule.max + 1].filter((n) => n >= 0)) {
        const raw = { hook_event_name: 'Stop', session_id: 's', [key]: 'x'.repeat(len) };
        const picked = pickStatePayload(raw);
        const line = 'payload' in picked ? stateRequestLine('codex', env, picked.payload) : null;
        const sent = line && 'line' in line ? JSON.parse(line.line).args : null;
        const catalog = args.safeParse({ group_id: 'g_1', actor_id: 'peer1', runtime: 'codex', launch_token: 'tok', payload: raw });
        expect({ key, len, ok: sent !== null }).toEqual({ key, len, ok: catalog.success });
        if (sent) expect(args.parse(sent)).toEqual(sent);
      }
    }
  });

  it('a UserPromptSubmit sends its prompt\'s line marks, never the prompt: the daemon matches each delivery it carries', () => {
    const prompt = '[cccc] user → peer1 [event_id=e1]: SECRET first\nSECRET body\n\n[cccc] user → peer1 [event_id=e2]: SECRET second';
    const picked = pickStatePayload({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt_id: 'p1', prompt });
    expect('payload' in picked).toBe(true);
    if (!('payload' in picked)) return;
    expect(picked.payload.prompt_marks).toContain(typedMark('[cccc] user → peer1 [event_id=e1]: SECRET first\nmore typed'));
    expect(picked.payload.prompt_marks).toContain(typedMark('[cccc] user →  peer1 [event_id=e2]:  SECRET second'));
    expect(picked.payload.prompt_marks).not.toContain(typedMark('[cccc] user → peer1 [event_id=e3]: SECRET first'));
    const line = stateRequestLine('claude', env, picked.payload);
    expect('line' in line && line.line).not.toMatch(/SECRET/);
    if ('line' in line) expect(args.parse(JSON.parse(line.line).args).payload.prompt_marks).toEqual(picked.payload.prompt_marks);
    // Other events never carry marks, even with a prompt-like field.
    const stop = pickStatePayload({ hook_event_name: 'Stop', session_id: 's', prompt });
    expect('payload' in stop && stop.payload.prompt_marks).toBeUndefined();
  });

  it('never copies prompts, commands, tool inputs/outputs or notification text', () => {
    const picked = pickStatePayload({
      hook_event_name: 'PostToolUse', session_id: 's', tool_use_id: 't', tool_name: 'Bash',
      prompt: 'SECRET', tool_input: { command: 'SECRET' }, tool_response: 'SECRET', message: 'SECRET', turn_id: 7,
    });
    expect(picked).toEqual({ payload: { hook_event_name: 'PostToolUse', session_id: 's', tool_use_id: 't', tool_name: 'Bash' } });
    expect(pickStatePayload([1])).toEqual({ error: 'payload.hook_event_name' });
    expect(pickStatePayload({ hook_event_name: 'Stop' })).toEqual({ error: 'payload.session_id' });
  });

  it('builds one IPC v1 request line and reads the answer', () => {
    const r = stateRequestLine('claude', env, { hook_event_name: 'Stop', session_id: 's' });
    expect('line' in r && r.line.endsWith('\n') && r.line.indexOf('\n') === r.line.length - 1).toBe(true);
    expect(JSON.parse((r as { line: string }).line)).toEqual({
      v: 1, op: 'runtime_hook_event',
      args: { group_id: 'g_1', actor_id: 'peer1', runtime: 'claude', launch_token: 'tok', payload: { hook_event_name: 'Stop', session_id: 's' }, fired_at_ms: expect.any(Number) },
    });
    // When the agent ran the hook: this process's start, which is not after now.
    const firedAt = JSON.parse((r as { line: string }).line).args.fired_at_ms as number;
    expect(firedAt).toBeLessThanOrEqual(Date.now());
    expect(firedAt).toBeGreaterThan(Date.now() - process.uptime() * 1000 - 1000);
    expect(stateRequestLine('claude', { ...env, CCCC_HOOK_LAUNCH_TOKEN: 'x'.repeat(129) }, {})).toEqual({ error: 'launch_token' });
    expect(missingIdentity({ ...env, CCCC_ACTOR_ID: '' })).toEqual(['CCCC_ACTOR_ID']);
    expect(readStateAnswer('{"v":1,"ok":true,"result":{"accepted":true},"error":null}')).toEqual({ accepted: true });
    expect(readStateAnswer('{"v":1,"ok":true,"result":{"accepted":false,"reason":"stale_turn"},"error":null}')).toEqual({ accepted: false, reason: 'stale_turn' });
    expect(readStateAnswer('{"v":1,"ok":false,"result":{},"error":{"code":"group_not_found","message":"no"}}')).toEqual({ accepted: false, reason: 'group_not_found: no' });
    expect(readStateAnswer('garbage')).toEqual({ accepted: false, reason: 'unreadable answer' });
  });
});
