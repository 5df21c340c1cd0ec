import { describe, expect, it } from 'vitest';
import { cursorAnswer, cursorPlan, cursorQuestions } from './headless-cursor';

// The Web card's reading of Cursor's blocking requests (summary format "cursor"); pure.

const question = {
  kind: 'question',
  summary: {
    format: 'cursor',
    title: 'Setup',
    questions: [
      { id: 'lang', prompt: 'Which language?', options: [{ id: 'ts', label: 'TypeScript' }, { id: 'py', label: 'Python' }], allow_multiple: false },
      { id: 'extras', prompt: 'Extras?', options: [{ id: 'lint', label: 'Lint' }, { id: 'ci', label: 'CI' }], allow_multiple: true },
    ],
  },
};

describe('Cursor requests on the card', () => {
  it('reads Cursor questions only (not Codex\'s), and answers with option ids once every question has its choice', () => {
    const qs = cursorQuestions(question);
    expect(qs.map((q) => [q.id, q.prompt, q.multiple, q.options.map((o) => o.label)])).toEqual([
      ['lang', 'Which language?', false, ['TypeScript', 'Python']],
      ['extras', 'Extras?', true, ['Lint', 'CI']],
    ]);
    expect(cursorQuestions({ kind: 'question', summary: { questions: [{ id: 'q', question: 'Codex?' }] } })).toEqual([]);
    expect(cursorAnswer(qs, { lang: ['py'] })).toBeNull();
    expect(cursorAnswer(qs, { lang: ['py', 'ts'], extras: ['ci'] })).toBeNull();
    expect(cursorAnswer(qs, { lang: ['py'], extras: ['lint', 'ci'] })).toEqual({ outcome: 'answered', answers: { lang: ['py'], extras: ['lint', 'ci'] } });
  });

  it('reads a Cursor plan; anything else is not one', () => {
    expect(cursorPlan({ kind: 'plan', summary: { format: 'cursor', name: 'Refactor', overview: 'Split', plan: '1. split' } })).toEqual({ name: 'Refactor', overview: 'Split', plan: '1. split' });
    expect(cursorPlan({ kind: 'command', summary: { command: 'ls' } })).toBeNull();
  });
});
