import { describe, expect, it } from 'vitest';
import { questionsOf, questionSummary, userInputResponse } from './codex-interaction.js';

const params = {
  threadId: 't1',
  turnId: 'turn1',
  itemId: 'i1',
  isBlocking: true,
  autoResolutionMs: null,
  questions: [
    { id: 'db', header: 'Database', question: 'Which database?', isOther: false, isSecret: false, options: [{ label: 'sqlite', description: 'file' }, { label: 'postgres', description: 'server' }] },
    { id: 'name', header: 'Name', question: 'Project name?', isOther: false, isSecret: false, options: null },
    { id: 'mode', header: 'Mode', question: 'Mode?', isOther: true, isSecret: true, options: [{ label: 'fast', description: '' }] },
  ],
};

describe('codex request_user_input as an interaction', () => {
  const questions = questionsOf(params)!;

  it('reads the questions; a request without questions is not answerable', () => {
    expect(questions.map((q) => q.id)).toEqual(['db', 'name', 'mode']);
    expect(questionsOf({ threadId: 't1', questions: [] })).toBeNull();
    expect(questionsOf({ threadId: 't1' })).toBeNull();
    expect(questionsOf({ questions: [{ header: 'no id' }] })).toBeNull();
  });

  it('summary: questions and options for review, nothing else', () => {
    expect(questionSummary(questions)).toEqual({
      questions: [
        { id: 'db', header: 'Database', question: 'Which database?', is_other: false, is_secret: false, options: [{ label: 'sqlite', description: 'file' }, { label: 'postgres', description: 'server' }] },
        { id: 'name', header: 'Name', question: 'Project name?', is_other: false, is_secret: false, options: null },
        { id: 'mode', header: 'Mode', question: 'Mode?', is_other: true, is_secret: true, options: [{ label: 'fast', description: '' }] },
      ],
    });
  });

  it('maps a complete answer to codex ToolRequestUserInputResponse', () => {
    expect(userInputResponse(questions, { answers: { db: ['postgres'], name: ['demo'], mode: ['my own mode'] } })).toEqual({
      answers: { db: { answers: ['postgres'] }, name: { answers: ['demo'] }, mode: { answers: ['my own mode'] } },
    });
  });

  it('refuses answers that do not fit: missing, extra, not an option, wrong cardinality, wrong shape', () => {
    const ok = { db: ['sqlite'], name: ['x'], mode: ['fast'] };
    const bad: unknown[] = [
      undefined,
      null,
      'postgres',
      [],
      { answers: null },
      { answers: [] },
      { answers: { db: ['sqlite'], name: ['x'] } },
      { answers: { ...ok, extra: ['y'] } },
      { answers: { ...ok, db: ['mysql'] } },
      { answers: { ...ok, db: ['sqlite', 'postgres'] } },
      { answers: { ...ok, name: [] } },
      { answers: { ...ok, name: ['  '] } },
      { answers: { ...ok, name: 'x' } },
      { answers: { ...ok, name: [7] } },
    ];
    for (const response of bad) {
      expect(() => userInputResponse(questions, response), JSON.stringify(response)).toThrow(expect.objectContaining({ code: 'invalid_response' }));
    }
  });
});
