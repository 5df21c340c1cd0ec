// Steps shared by the pinned per-user cache installers (tools/real-clis, tools/local-registry).
import { spawnSync } from 'node:child_process';

/** Runs a command to completion; a failure keeps the last 15 lines of its output for the reason. */
export function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.error) return { ok: false, output: `${command} ${args.join(' ')}: ${result.error.message}` };
  if (result.status !== 0) {
    const tail = output.split('\n').slice(-15).join('\n');
    return { ok: false, output: `${command} ${args.join(' ')} exited ${result.status ?? result.signal}:\n${tail}`, full: output };
  }
  return { ok: true, output };
}

/** The line of npm's output that says why an install failed (a fetch error, else npm's code). */
export function firstErrorLine(output) {
  const lines = output.split('\n');
  return (lines.find((line) => /FetchError/.test(line)) ?? lines.find((line) => /npm error code /.test(line)) ?? lines[0] ?? '').trim();
}
