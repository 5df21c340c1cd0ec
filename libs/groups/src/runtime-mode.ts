import { groupError } from './errors.js';

// Spec §8.4 runtime modes: `default` is the runtime's native surface; `acp` (official pure
// headless ACP) exists only for Antigravity, Copilot, Devin and Cursor. Any other pair is
// rejected, never stored and silently ignored.

export type RuntimeModeValue = 'default' | 'acp';

export const ACP_MODE_RUNTIMES: readonly string[] = ['antigravity', 'copilot', 'devin', 'cursor'];

export function supportsRuntimeMode(runtime: string, mode: RuntimeModeValue): boolean {
  return mode === 'default' || ACP_MODE_RUNTIMES.includes(runtime);
}

/** Throws `code` (details.field `runtime_mode`) for an unknown mode or an unsupported runtime/mode pair. */
export function assertRuntimeMode(runtime: string, mode: unknown, code: 'invalid_request' | 'invalid_patch'): RuntimeModeValue {
  if (mode !== 'default' && mode !== 'acp') throw groupError(code, 'runtime_mode must be default|acp', { field: 'runtime_mode' });
  if (!supportsRuntimeMode(runtime, mode)) {
    throw groupError(code, `runtime ${runtime} has no ${mode} mode (acp: ${ACP_MODE_RUNTIMES.join(', ')})`, { field: 'runtime_mode', runtime, runtime_mode: mode });
  }
  return mode;
}

/**
 * The mode an `actor_update` leaves: an explicit mode is checked against the resulting runtime;
 * repeating the same runtime without a mode preserves the existing mode; changing the runtime
 * without a mode resets it to default. undefined: the patch does not touch the mode.
 */
export function patchedRuntimeMode(
  current: { runtime?: string; runtime_mode?: RuntimeModeValue },
  patch: Record<string, unknown>,
): RuntimeModeValue | undefined {
  const nextRuntime = typeof patch.runtime === 'string' && patch.runtime.trim() ? patch.runtime.trim() : (current.runtime ?? '');
  if ('runtime_mode' in patch) return assertRuntimeMode(nextRuntime, patch.runtime_mode, 'invalid_patch');
  if (typeof patch.runtime === 'string' && nextRuntime !== (current.runtime ?? '')) return current.runtime_mode === undefined ? undefined : 'default';
  return undefined;
}
