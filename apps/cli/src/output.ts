import { startFailureIn, type DaemonCallError, type DaemonTransportError, type IpcError } from '@cccc/ipc-protocol/call';
import { startProblemLines } from './start-lines.js';
import { writeStderr, writeStdout } from './stdio.js';

export interface OutputOptions {
  readonly json?: boolean;
}

export function printJson(value: unknown): void {
  writeStdout(JSON.stringify(value, null, 2) + '\n');
}

/** One line per value: the shape `tail -f --json` streams, so each line parses on its own. */
export function printJsonLine(value: unknown): void {
  writeStdout(JSON.stringify(value) + '\n');
}

export function printLines(lines: readonly string[]): void {
  if (lines.length > 0) writeStdout(lines.join('\n') + '\n');
}

/**
 * The error classes are matched by name, not `instanceof`: the CLI bundle (dist/cli.cjs) carries
 * its own copy of @cccc/ipc-protocol, and a package it imports when a command runs (the Web
 * server, the runtime catalog) throws its own copy's instances.
 */
function isNamed<T extends Error>(error: unknown, name: 'IpcError' | 'DaemonCallError' | 'DaemonTransportError'): error is T {
  return error instanceof Error && error.name === name;
}

/** A daemon error prints its code and message and exits non-zero (the CLI's one error path). */
export function reportError(error: unknown, options: OutputOptions = {}): number {
  if (isNamed<DaemonCallError>(error, 'DaemonCallError')) {
    if (options.json) printJson({ ok: false, error: { code: error.code, message: error.message, details: error.details } });
    else {
      writeStderr(`error: ${error.code}: ${error.message.replace(/^[^:]+: [^:]+: /, '')}\n`);
      // A start that did not run: its exit status and the agent's last lines say why.
      const failure = startFailureIn(error.details);
      if (failure) writeStderr(startProblemLines(String(error.details['actor_id'] ?? 'actor'), failure, 'not started').join('\n') + '\n');
    }
    return 1;
  }
  // Errors the CLI raises itself (no_active_group, bad KEY=VALUE, ...) carry a stable code too.
  if (isNamed<IpcError>(error, 'IpcError')) {
    if (options.json) printJson({ ok: false, error: { code: error.code, message: error.message, details: error.details } });
    else writeStderr(`error: ${error.code}: ${error.message}\n`);
    return 1;
  }
  if (isNamed<DaemonTransportError>(error, 'DaemonTransportError')) {
    if (options.json) printJson({ ok: false, error: { code: `transport_${error.failure}`, message: error.message, details: {} } });
    else writeStderr(`error: ${error.message}\n`);
    return 1;
  }
  writeStderr(`error: ${(error as Error)?.message ?? String(error)}\n`);
  return 1;
}
