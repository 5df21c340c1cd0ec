import { readFileSync } from 'node:fs';

/**
 * Process identity beyond the pid: the start time the kernel recorded for it (field 22 of
 * /proc/<pid>/stat, clock ticks since boot). A recycled pid has another start time, so an
 * ownership record can never make us signal an unrelated process. Undefined when the process is
 * gone or the platform has no /proc (then identity cannot be proven and nothing is signalled).
 */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), so field 22 is rest[19].
  return rest[19];
}

/** True only when `pid` is alive and is the very process that had `startTime`. */
export function isSameProcess(pid: number, startTime: string | null | undefined): boolean {
  if (!startTime) return false;
  return processStartTime(pid) === startTime;
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
