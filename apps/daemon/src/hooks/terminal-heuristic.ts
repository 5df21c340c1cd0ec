/**
 * Screen heuristics (REFERENCE_NOTES §4 step 4): a labelled fallback for when no authoritative
 * hook state exists. They read only the tail of the PTY output and break with every CLI
 * release, which is why hook evidence always wins over them.
 */

// CSI / OSC / two-byte escapes, so the patterns see what a person would read on the screen.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

const CLAUDE_WORKING = /esc to interrupt/i;
const CLAUDE_IDLE_PROMPT = /│ >/;
const CODEX_WORKING = /Working \(/;
const CODEX_PROMPT = /^\s*›/m;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** 'working' | 'idle' from the screen tail of a claude or codex runtime, else null (no opinion). */
export function terminalWorkingHint(runtime: string | undefined, screenTail: string): 'working' | 'idle' | null {
  const text = stripAnsi(screenTail);
  if (runtime === 'claude') {
    if (CLAUDE_WORKING.test(text)) return 'working';
    if (CLAUDE_IDLE_PROMPT.test(text)) return 'idle';
    return null;
  }
  if (runtime === 'codex') {
    const lastWorking = text.lastIndexOf('Working (');
    if (lastWorking < 0) return CODEX_PROMPT.test(text) ? 'idle' : null;
    // A prompt line after the last "Working (" means that turn is over.
    return CODEX_PROMPT.test(text.slice(lastWorking)) ? 'idle' : CODEX_WORKING.test(text) ? 'working' : null;
  }
  return null;
}
