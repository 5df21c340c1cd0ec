import { isLoopbackHost, resolveCcccHome } from '@cccc/ipc-protocol/node';
import { capabilityLimitsFromEnv, type CapabilityLimits } from '@cccc/capabilities';
import { STUCK_AFTER_MS } from '@cccc/hook-fence';

export type TransportConfig =
  | { readonly kind: 'unix' }
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number };

export interface StreamTuning {
  /** Idle keepalive interval of event streams. */
  readonly heartbeatMs: number;
  /** Per-subscriber bound on unsent bytes before it is ended with `slow_subscriber`. */
  readonly maxPendingBytes: number;
  /** An open tool or turn with no revision this long shows as `stuck` in activity snapshots. */
  readonly activityStuckMs: number;
}

/** Actor processes and prompt delivery (issue 6). */
export interface RuntimeTuning {
  /** Pause between a pasted payload and its submit key (REFERENCE_NOTES §3.3: 1.5 s). */
  readonly submitDelayMs: number;
  /**
   * Submit by evidence (issue 19, on by default): Enter follows the TUI's answer to the paste
   * where the runtime has a verified rule, and the preamble gap ends at a hooked agent's prompt
   * hook. CCCC_SUBMIT_EVIDENCE=0 keeps the fixed waits everywhere (the reference's behaviour).
   */
  readonly submitEvidence: boolean;
  /** SIGTERM → SIGKILL grace when stopping an actor's process group. */
  readonly stopGraceMs: number;
  /** Gap after the preamble before the first delivery of a session (separate preambles only). */
  readonly preambleGapMs: number;
  /**
   * The start-up prompt goes with the first task as one submission for agent runtimes (spec
   * §8.4; issue 19: the first delivery then costs one turn, not two). CCCC_PREAMBLE_SEPARATE=1
   * sends it on its own first, as the reference's notes describe (the bench's baseline).
   */
  readonly preambleWithFirstTask: boolean;
  /** Window after an accepted PTY delivery to a hooked runtime for its UserPromptSubmit (issue 7: 15 s). */
  readonly deliveryConfirmMs: number;
  /**
   * Most a stop or restart waits for a delivery already submitted to be taken up by the agent
   * (its prompt hook) before the process goes (issue 19: 5 s; 0 never waits).
   */
  readonly stopDrainMs: number;
  /** Period of the working-state derivation (REFERENCE_NOTES §4: once per second). */
  readonly workingStateTickMs: number;
  /**
   * How long after spawn an exit still counts as "did not start" (issue 15: 1.5 s). Explicit
   * starts wait this long, for all actors at once, before answering; 0 answers at spawn.
   */
  readonly earlyExitWindowMs: number;
  /** Period of the automation scheduler's tick (CCCC_AUTOMATION_TICK_MS, 5 s; 0: no timer, ticks are driven by hand). */
  readonly automationTickMs: number;
  /**
   * Codex actors run managed through one daemon-owned app-server thread with the native TUI
   * attached (spec §8.4: MUST). CCCC_CODEX_MANAGED=0 is the escape to the hooked native PTY
   * (suites that drive a fake `codex` in a PTY, the bench's native baseline).
   */
  readonly codexManaged: boolean;
  /**
   * Grok actors run as a managed ACP session (§8.4) only with CCCC_GROK_MANAGED=1: built against
   * the spec, untested on a real Grok CLI, and without the leader / native TUI the spec requires,
   * so the native PTY stays the default.
   */
  readonly grokManaged?: boolean;
  /**
   * Claude Code ≥ 2.1.63 POSTs the hook events that fire over http to the daemon's loopback
   * listener instead of running `cccc hook claude-state` per event (issue 35).
   * CCCC_CLAUDE_HTTP_HOOKS=0 is the escape back to command hooks everywhere (no listener).
   */
  readonly claudeHttpHooks: boolean;
  /**
   * Claude actors run as one CCCC-owned Agent View background session with `claude attach` in
   * their PTY (spec §8.4 "MUST use", issue 25): on unless CCCC_CLAUDE_BACKGROUND=0 (or false here).
   * A claude below 2.1.259, one whose `--help` does not list `--bg`, `attach` and `agents`, or a
   * command CCCC cannot own runs the native hooked PTY (a reported fallback).
   */
  readonly claudeBackground?: boolean;
}

/** What the socket server tolerates from peers (issue 20). */
export interface ConnectionTuning {
  /** A request line must be complete this long after connect or after its first byte (CCCC_HANDSHAKE_TIMEOUT_MS, 10 s). */
  readonly handshakeTimeoutMs: number;
  /** Connections served at once, streams included (CCCC_MAX_CONNECTIONS, 1,024). */
  readonly maxConnections: number;
}

export interface DaemonConfig {
  readonly home: string;
  readonly transport: TransportConfig;
  readonly connections: ConnectionTuning;
  readonly streams: StreamTuning;
  readonly runtime: RuntimeTuning;
  /**
   * Absolute path of the CLI entry that runs this daemon (the `cccc` package's bin shim, which
   * takes the fast CommonJS path for hooks): what actors' injected hooks and MCP server run, and
   * what `ping` reports as `executable`. Handed over by the CLI that starts the daemon, never
   * guessed from argv. Absent (in-process tests, library use): claude/codex actors launch without
   * hooks and MCP wiring, and the daemon logs a warning saying so.
   */
  readonly cliEntry?: string;
  /** CCCC_CAPABILITY_* quotas, caps and source gates (spec §8.3). */
  readonly capabilities: CapabilityLimits;
}

function nonNegativeInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new DaemonConfigError(`${name} must be a non-negative integer, not ${JSON.stringify(raw)}`);
  return value;
}

function runtimeTuning(env: NodeJS.ProcessEnv): RuntimeTuning {
  return {
    submitDelayMs: nonNegativeInt(env, 'CCCC_SUBMIT_DELAY_MS', 1500),
    submitEvidence: !/^(0|false|no|off)$/i.test(env.CCCC_SUBMIT_EVIDENCE?.trim() ?? ''),
    stopGraceMs: nonNegativeInt(env, 'CCCC_STOP_GRACE_MS', 3000),
    preambleGapMs: nonNegativeInt(env, 'CCCC_PREAMBLE_GAP_MS', 1000),
    preambleWithFirstTask: !/^(1|true|yes|on)$/i.test(env.CCCC_PREAMBLE_SEPARATE?.trim() ?? ''),
    deliveryConfirmMs: positiveInt(env, 'CCCC_DELIVERY_CONFIRM_MS', 15_000),
    stopDrainMs: nonNegativeInt(env, 'CCCC_STOP_DRAIN_MS', 5000),
    workingStateTickMs: positiveInt(env, 'CCCC_WORKING_STATE_TICK_MS', 1000),
    automationTickMs: nonNegativeInt(env, 'CCCC_AUTOMATION_TICK_MS', 5000),
    earlyExitWindowMs: nonNegativeInt(env, 'CCCC_EARLY_EXIT_WINDOW_MS', 1500),
    codexManaged: !/^(0|false|no|off)$/i.test(env.CCCC_CODEX_MANAGED?.trim() ?? ''),
    grokManaged: /^(1|true|yes|on)$/i.test(env.CCCC_GROK_MANAGED?.trim() ?? ''),
    claudeHttpHooks: !/^(0|false|no|off)$/i.test(env.CCCC_CLAUDE_HTTP_HOOKS?.trim() ?? ''),
    claudeBackground: !/^(0|false|no|off)$/i.test(env.CCCC_CLAUDE_BACKGROUND?.trim() ?? ''),
  };
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new DaemonConfigError(`${name} must be a positive integer, not ${JSON.stringify(raw)}`);
  return value;
}

function streamTuning(env: NodeJS.ProcessEnv): StreamTuning {
  return {
    heartbeatMs: positiveInt(env, 'CCCC_STREAM_HEARTBEAT_MS', 15_000),
    maxPendingBytes: positiveInt(env, 'CCCC_STREAM_MAX_PENDING_BYTES', 1024 * 1024),
    activityStuckMs: positiveInt(env, 'CCCC_ACTIVITY_STUCK_MS', STUCK_AFTER_MS),
  };
}

/** A configuration the daemon refuses to start with; the message is for a person. */
export class DaemonConfigError extends Error {
  override name = 'DaemonConfigError';
}

/** §3.3: CCCC_DAEMON_TRANSPORT / _HOST / _PORT; TCP only on loopback, checked before binding. */
export function daemonConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DaemonConfig {
  const home = resolveCcccHome(env);
  const streams = streamTuning(env);
  const runtime = runtimeTuning(env);
  const connections: ConnectionTuning = {
    handshakeTimeoutMs: positiveInt(env, 'CCCC_HANDSHAKE_TIMEOUT_MS', 10_000),
    maxConnections: positiveInt(env, 'CCCC_MAX_CONNECTIONS', 1024),
  };
  const kind = (env.CCCC_DAEMON_TRANSPORT ?? 'unix').trim().toLowerCase() || 'unix';
  const capabilities = capabilityLimitsFromEnv(env);
  if (kind === 'unix') return { home, transport: { kind: 'unix' }, connections, streams, runtime, capabilities };
  if (kind !== 'tcp') {
    throw new DaemonConfigError(`CCCC_DAEMON_TRANSPORT must be "unix" or "tcp", not ${JSON.stringify(env.CCCC_DAEMON_TRANSPORT)}`);
  }
  const host = (env.CCCC_DAEMON_HOST ?? '').trim() || '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new DaemonConfigError(
      `refusing to bind daemon IPC to non-loopback host ${host}: the IPC has no authentication. ` +
        'Use 127.0.0.1 (or ::1), and the authenticated Web port for remote access.',
    );
  }
  const rawPort = (env.CCCC_DAEMON_PORT ?? '').trim() || '0';
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new DaemonConfigError(`CCCC_DAEMON_PORT must be an integer in 0..65535, not ${JSON.stringify(rawPort)}`);
  }
  return { home, transport: { kind: 'tcp', host, port }, connections, streams, runtime, capabilities };
}
