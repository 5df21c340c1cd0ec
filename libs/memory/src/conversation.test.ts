import { describe, expect, it } from 'vitest';
import { compact, contextCheck } from './conversation.js';
import { normalizeSignalPack, summarizeDaily } from './daily-summary.js';

const msg = (role: string, words: number, name?: string) => ({ role, content: 'word '.repeat(words), ...(name ? { name } : {}) });

describe('contextCheck', () => {
  it('stays below window − reserve without cutting', () => {
    const r = contextCheck({ messages: [msg('user', 10)] });
    expect(r).toMatchObject({ needs_compaction: false, token_count: 12, threshold: 92_000, cut_index: 0, is_split_turn: false });
    expect(r.left_messages).toHaveLength(1);
  });

  it('cuts on a user message when the kept tail starts there', () => {
    // 5 chars a word: 100 words = 125 tokens.
    const messages = [msg('user', 400), msg('assistant', 400), msg('user', 240), msg('assistant', 10)];
    const r = contextCheck({ messages, contextWindowTokens: 1200, reserveTokens: 100, keepRecentTokens: 300 });
    expect(r).toMatchObject({ needs_compaction: true, threshold: 1100, cut_index: 2, is_split_turn: false });
    expect(r.messages_to_summarize).toHaveLength(2);
    expect(r.left_messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('splits a turn: the user message that opened it is the turn prefix', () => {
    const messages = [msg('user', 160), msg('assistant', 160), msg('user', 96, 'alice'), msg('assistant', 64), msg('tool', 64), msg('bogus', 320)];
    const r = contextCheck({ messages, contextWindowTokens: 1024, reserveTokens: 100, keepRecentTokens: 300 });
    expect(r.is_split_turn).toBe(true);
    expect(r.cut_index).toBe(5);
    expect(r.turn_prefix_messages[0]).toMatchObject({ role: 'user', name: 'alice' });
    expect(r.messages_to_summarize).toHaveLength(2);
    expect(r.left_messages).toEqual([{ role: 'assistant', name: '', content: 'word '.repeat(320) }]);
  });
});

describe('compact', () => {
  it('summarizes extractively, or returns the prompt', () => {
    const m = [{ role: 'user', content: 'we chose sqlite' }, { role: 'assistant', name: 'peer1', content: 'ok' }];
    expect(compact({ messagesToSummarize: m, previousSummary: 'old' })).toEqual({ summary: 'Previous summary: old\nHistory summary:\n- USER: we chose sqlite\n- ASSISTANT(peer1): ok' });
    const p = compact({ messagesToSummarize: m, language: 'zh', returnPrompt: true });
    expect(p).toMatchObject({ prompt: { history_user: 'USER: we chose sqlite\nASSISTANT(peer1): ok' } });
    expect('prompt' in p && p.prompt['system']).toContain('zh');
  });
});

describe('signal pack and daily summary', () => {
  it('never exceeds the budget and says it truncated', () => {
    const raw = {
      coordination_brief: { objective: 'A'.repeat(2000), current_focus: 'B'.repeat(900), project_brief: 'C'.repeat(900), constraints: Array(20).fill('x') },
      tasks: { active: Array(20).fill('D'.repeat(200)), planned: Array(20).fill('E'.repeat(200)) },
      agent_states: [{ id: 'peer1', hot: { focus: 'F'.repeat(400) } }],
    };
    const { meta } = normalizeSignalPack(raw, 64);
    expect(meta.token_estimate).toBeLessThanOrEqual(64);
    expect(meta.truncated).toBe(true);
  });

  it('writes the resume cues of the pack and nothing for an empty flush', () => {
    const { pack } = normalizeSignalPack({ agent_states: [{ id: 'peer1', focus: 'parity', blockers: ['CI'], open_loops: ['release'] }] }, 320);
    expect(summarizeDaily([], pack)).toBe('**Agent Resume Cues**\n- peer1 | focus=parity | blockers=CI | open=release');
    expect(summarizeDaily([{ role: 'user', content: '  ' }], undefined)).toBe('');
  });
});
