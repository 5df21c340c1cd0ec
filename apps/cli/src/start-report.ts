import type { ActorStartResult } from '@cccc/ipc-protocol';
import { startProblemLines } from './start-lines.js';

export { startProblemLines };

/** `group start`: who runs, then each actor that did not (and each caveat). */
export function groupStartLines(groupId: string, started: readonly string[], results: readonly ActorStartResult[] | undefined): string[] {
  // A daemon without per-actor results (the reference) only says whom it set out to start.
  if (!results) return [`started ${groupId}: ${started.join(', ') || 'no enabled actors'}`];
  const running = results.filter((r) => r.running).map((r) => r.actor_id);
  const lines = [`started ${groupId}: ${running.join(', ') || (started.length > 0 ? 'none' : 'no enabled actors')}`];
  for (const r of results) {
    if (r.start_failure) lines.push(...startProblemLines(r.actor_id, r.start_failure, 'not started'));
    else if (!r.running) lines.push(`not started: ${r.actor_id}: ${r.start_error ?? 'stopped'}`);
    if (r.start_warning) lines.push(...startProblemLines(r.actor_id, r.start_warning, 'warning'));
  }
  return lines;
}
