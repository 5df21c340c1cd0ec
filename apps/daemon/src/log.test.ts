import { describe, expect, it } from 'vitest';
import { errorFields } from './log.js';

describe('errorFields', () => {
  it('keeps the cause chain of an internal error for the log', () => {
    const root = new Error('disk full', { cause: new Error('ENOSPC: no space left on device') });
    const fields = errorFields(new Error('could not append', { cause: root }));
    expect(fields).toMatchObject({
      error: 'could not append',
      cause: { error: 'disk full', cause: { error: 'ENOSPC: no space left on device' } },
    });
  });

  it('stops following a cause cycle', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    const text = JSON.stringify(errorFields(a));
    expect(text.match(/"error"/g)!.length).toBeLessThanOrEqual(6);
  });

  it('logs a non-Error value as text', () => {
    expect(errorFields('boom')).toEqual({ error: 'boom' });
  });
});
