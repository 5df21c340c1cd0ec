// Fast entry for `cccc hook <name>`: agents wait on it at every tool call, so it skips building
// the command tree and is bundled into one self-contained CommonJS file (see
// tsup.hooks.config.ts) that loads only node builtins: no workspace package resolved at run
// time (ipc-protocol's zod-free endpoint discovery and exchange are inlined), no zod, no op
// catalog, and no ESM loader start-up. Always exits 0, never prints.
import { STDIN_DESCRIPTOR } from './commands/activity-stdin.js';
import { runStateHook } from './hook-fast/state-hook.js';

/**
 * The session recorder is a separate (ESM) bundle beside this one, imported relative to this
 * file. The specifier comes from a function so the bundler leaves it out of this file: the state
 * hooks never parse it.
 */
const activityBundle = (): string => './hook-activity.js';

const HOOKS: Record<string, () => Promise<void>> = {
  'claude-activity': async () => {
    const { runClaudeActivityHook } = (await import(activityBundle())) as typeof import('./hook-activity.js');
    await runClaudeActivityHook(process.env, STDIN_DESCRIPTOR);
  },
  'claude-state': () => runStateHook('claude', process.env, STDIN_DESCRIPTOR),
  'codex-state': () => runStateHook('codex', process.env, STDIN_DESCRIPTOR),
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
  // Exit now rather than wait for stdin or a socket to wind down: the agent is waiting.
  process.exit(0);
}
