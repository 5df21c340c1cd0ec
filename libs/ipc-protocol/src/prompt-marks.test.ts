import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RuntimeHookPayload } from './ops/hooks.js';
import { markOfLine, MAX_PROMPT_MARKS, PROMPT_MARK_PATTERN, promptMarks, squashLine, typedMark } from './prompt-marks.js';

describe('prompt marks', () => {
  it('a prompt carries the mark of each typed submit it took in, whitespace rewritten or not', () => {
    const typed = '  [cccc] user → peer1 [event_id=e1]:\thello\nsecond line';
    const merged = 'earlier prompt\n[cccc]  user → peer1 [event_id=e1]: hello\r\nsecond line\n\n[cccc] user → peer1 [event_id=e2]: next';
    const marks = promptMarks(merged);
    expect(marks).toContain(typedMark(typed));
    expect(marks).toContain(typedMark('[cccc] user → peer1 [event_id=e2]: next'));
    expect(marks).not.toContain(typedMark('[cccc] user → peer1 [event_id=e3]: hello'));
    expect(typedMark(' \n ')).toBe('');
  });

  it('marks are 16 hex digits, distinct per line, bounded in number, and never the text', () => {
    const marks = promptMarks(Array.from({ length: 3000 }, (_, i) => `line ${i % 2000}`).join('\n'));
    expect(marks).toHaveLength(MAX_PROMPT_MARKS);
    expect(marks.every((m) => PROMPT_MARK_PATTERN.test(m))).toBe(true);
    expect(new Set(marks).size).toBe(marks.length);
    expect(squashLine('x'.repeat(1000))).toHaveLength(240);
  });

  it('every prompt\'s marks fit the wire schema (its pattern and bound are these)', () => {
    const long = promptMarks(Array.from({ length: 5000 }, (_, i) => `l${i}`).join('\n'));
    expect(RuntimeHookPayload.parse({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt_marks: long }).prompt_marks).toEqual(long);
    expect(RuntimeHookPayload.safeParse({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt_marks: [...long, 'ffffffffffffffff'] }).success).toBe(false);
    expect(RuntimeHookPayload.safeParse({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt_marks: ['not a mark'] }).success).toBe(false);
    expect(PROMPT_MARK_PATTERN.source).toBe('^[0-9a-f]{16}$');
  });

  it('different lines get different marks (no collisions over many random lines)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 80 }).map(squashLine).filter((s) => s !== ''), { minLength: 2, maxLength: 200 }), (lines) => {
        expect(new Set(lines.map(markOfLine)).size).toBe(lines.length);
      }),
    );
  });
});
