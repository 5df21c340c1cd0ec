import { describe, expect, it } from 'vitest';
import { promptCarries, promptMarker, submittedPrompt } from './prompt-evidence.js';

describe('prompt evidence', () => {
  it('the marker is the first non-blank line, whitespace squashed, bounded', () => {
    expect(promptMarker('\n\n  [cccc] user → peer1  [event_id=e1]:\thi\nbody')).toBe('[cccc] user → peer1 [event_id=e1]: hi');
    expect(promptMarker('x'.repeat(1000))).toHaveLength(240);
    expect(promptMarker('  \n ')).toBe('');
  });

  it('a prompt carries a marker whatever its line ends; an empty marker is carried by nothing', () => {
    const typed = '[cccc] a → b [event_id=e1]: one\r\ntwo';
    expect(promptCarries('[cccc] a → b [event_id=e1]: one\ntwo', promptMarker(typed))).toBe(true);
    expect(promptCarries('[cccc] a → b [event_id=e2]: one', promptMarker(typed))).toBe(false);
    expect(promptCarries('anything', '')).toBe(false);
  });

  it('reads the prompt of a payload, only when it is a string', () => {
    expect(submittedPrompt({ hook_event_name: 'UserPromptSubmit', prompt: 'p' })).toBe('p');
    expect(submittedPrompt({ prompt: 3 })).toBeNull();
    expect(submittedPrompt(null)).toBeNull();
  });
});
