import { describe, expect, it } from 'vitest';
import { CursorAskQuestionParams, planResult, planSummary, questionResult, questionSummary } from './cursor-interactions.js';

// The pure half of Cursor's blocking extension requests: what is shown for review, and which
// answers become Cursor's result (every question answered with its own options, cardinality kept).

const ask = CursorAskQuestionParams.parse({
  toolCallId: 'c1',
  title: 'Setup',
  questions: [
    { id: 'lang', prompt: 'Which language?', options: [{ id: 'ts', label: 'TypeScript' }, { id: 'py', label: 'Python' }], allowMultiple: false },
    { id: 'extras', prompt: 'Extras?', options: [{ id: 'lint', label: 'Lint' }, { id: 'ci', label: 'CI' }], allowMultiple: true },
  ],
});

describe('cursor/ask_question', () => {
  it('shows the questions and options for review', () => {
    expect(questionSummary(ask)).toEqual({
      format: 'cursor',
      title: 'Setup',
      questions: [
        { id: 'lang', prompt: 'Which language?', options: [{ id: 'ts', label: 'TypeScript' }, { id: 'py', label: 'Python' }], allow_multiple: false },
        { id: 'extras', prompt: 'Extras?', options: [{ id: 'lint', label: 'Lint' }, { id: 'ci', label: 'CI' }], allow_multiple: true },
      ],
    });
  });

  it('an answer to every question with known options becomes Cursor\'s answered outcome, in question order', () => {
    expect(questionResult(ask, { outcome: 'answered', answers: { extras: ['lint', 'ci'], lang: ['ts'] } })).toEqual({
      outcome: {
        outcome: 'answered',
        answers: [
          { questionId: 'lang', selectedOptionIds: ['ts'] },
          { questionId: 'extras', selectedOptionIds: ['lint', 'ci'] },
        ],
      },
    });
    expect(questionResult(ask, { outcome: 'skipped' })).toEqual({ outcome: { outcome: 'skipped' } });
    expect(questionResult(ask, { outcome: 'cancelled' })).toEqual({ outcome: { outcome: 'cancelled' } });
  });

  it('refuses (invalid_response) a missing or unknown question, an unknown option, two options for a single choice, a malformed outcome', () => {
    const refused = (response: unknown) => {
      try {
        questionResult(ask, response);
        return 'accepted';
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    expect(refused({ outcome: 'answered', answers: { lang: ['ts'] } })).toBe('invalid_response');
    expect(refused({ outcome: 'answered', answers: { lang: ['ts'], extras: ['ci'], other: ['x'] } })).toBe('invalid_response');
    expect(refused({ outcome: 'answered', answers: { lang: ['go'], extras: ['ci'] } })).toBe('invalid_response');
    expect(refused({ outcome: 'answered', answers: { lang: ['ts', 'py'], extras: ['ci'] } })).toBe('invalid_response');
    expect(refused({ outcome: 'answered', answers: { lang: [], extras: ['ci'] } })).toBe('invalid_response');
    expect(refused({ outcome: 'answered', answers: { lang: ['ts'], extras: ['ci', 'ci'] } })).toBe('invalid_response');
    expect(refused({ outcome: 'accepted' })).toBe('invalid_response');
    expect(refused('yes')).toBe('invalid_response');
  });
});

describe('cursor/create_plan', () => {
  it('shows the plan; accepted / rejected / cancelled are Cursor\'s outcomes, anything else is refused', () => {
    expect(planSummary({ toolCallId: 'p', name: 'Refactor', overview: 'Split', plan: '1. split', todos: [{ id: 't', content: 'split', status: 'pending' }] })).toEqual({
      format: 'cursor',
      name: 'Refactor',
      overview: 'Split',
      plan: '1. split',
      todos: ['split'],
    });
    expect(planResult({ outcome: 'accepted' })).toEqual({ outcome: { outcome: 'accepted' } });
    expect(planResult({ outcome: 'rejected', reason: 'too big' })).toEqual({ outcome: { outcome: 'rejected', reason: 'too big' } });
    expect(planResult({ outcome: 'cancelled' })).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(() => planResult({ outcome: 'answered' })).toThrow(expect.objectContaining({ code: 'invalid_response' }));
  });
});
