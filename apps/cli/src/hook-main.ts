// Fast entry for `cccc hook <name>`: agents wait on it at every tool call, so it skips building
// the command tree and loads only the hook it runs. Always exits 0 and never prints.
import { runStateHook } from './commands/hook.js';

const HOOKS: Record<string, () => Promise<void>> = {
  'claude-activity': async () => {
    const { runClaudeActivityHook } = await import('./commands/activity-recorder.js');
    await runClaudeActivityHook(process.env, process.stdin);
  },
  'claude-state': () => runStateHook('claude', process.env, process.stdin),
  'codex-state': () => runStateHook('codex', process.env, process.stdin),
};

/** True when `argv` (process.argv) names a hook this entry serves. */
export function isFastHook(argv: readonly string[]): boolean {
  return argv[2] === 'hook' && typeof argv[3] === 'string' && Object.hasOwn(HOOKS, argv[3]);
}

export async function runHook(name: string): Promise<void> {
  try {
    await HOOKS[name]?.();
  } catch {
    // A hook never blocks or steers the agent; the hooks log their own failures.
  }
  process.exitCode = 0;
}
