import type { Event } from '../events.js';

// A managed runtime: the provider's own session protocol (Codex app-server, later ACP) owned by
// the daemon beside the native PTY. The PTY stays the terminal a person sees (the provider's TUI
// attached to the same session); the protocol is authoritative for admission, working state,
// permissions and turn completion. The PTY adapter is not rewritten behind this interface: a
// managed session only says how to open its terminal (`terminalArgv`), and the existing
// ActorTerminal runs it.

/** What the session's own events say it is doing. */
export type ManagedWorkState = 'starting' | 'idle' | 'working' | 'waiting' | 'stopped';

/** A provider request waiting on a person (an approval or a question), under a CCCC-generated opaque token. */
export interface ManagedPermission {
  /** Opaque, unique per pending request and bound to its turn; never the provider's JSON-RPC id. */
  readonly request_id: string;
  readonly turn_id: string | null;
  /**
   * `command`, `file_change`, `permissions` (answered allow/deny); `question`, `elicitation`
   * (answered with `answerInteraction`).
   */
  readonly kind: string;
  /** The pending operation for review (command line, cwd, reason); never environment or config. */
  readonly summary: Readonly<Record<string, unknown>>;
  readonly created_at: string;
}

export interface ManagedState {
  /** The provider session (Codex: the thread id). */
  readonly session_id: string;
  readonly state: ManagedWorkState;
  readonly working: boolean;
  readonly active_turn_id: string | null;
  readonly permissions: readonly ManagedPermission[];
  /** Which provider event set the state last (provenance for `runtime_state_source`). */
  readonly reason: string;
  readonly updated_at: string;
}

/** The handoff fact of one protocol delivery (same meaning as a PTY submit's outcome). */
export type ManagedDeliverOutcome =
  | { readonly outcome: 'accepted'; readonly turnId: string }
  | { readonly outcome: 'failed'; readonly reason: string }
  | { readonly outcome: 'ambiguous'; readonly reason: string };

export interface ManagedTurnEvent {
  readonly phase: 'started' | 'completed';
  readonly turnId: string;
  /** For completed: `completed`, `interrupted`, `failed`. */
  readonly status?: string;
  readonly error?: string;
}

export interface ManagedExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Why the session ended: `stopped` (by us), `exited`, `connection_lost`. */
  readonly reason: string;
}

export class ManagedControlError extends Error {
  constructor(
    readonly code: 'request_not_found' | 'invalid_response' | 'not_running' | 'no_active_turn',
    message: string,
  ) {
    super(message);
    this.name = 'ManagedControlError';
  }
}

export interface ManagedSession {
  readonly runtime: string;
  /** The provider process (its own process group leader). */
  readonly pid: number;
  readonly sessionId: string;
  /** true when the session was resumed rather than created. */
  readonly resumed: boolean;
  readonly exited: boolean;
  state(): ManagedState;
  readonly onStateChanged: Event<ManagedState>;
  readonly onTurn: Event<ManagedTurnEvent>;
  /** Fires exactly once. */
  readonly onExit: Event<ManagedExit>;
  /** One turn carrying `text`; resolves once the provider admitted or refused it. */
  deliver(text: string): Promise<ManagedDeliverOutcome>;
  /** Answers one pending permission (at most one operation is granted). */
  answerPermission(requestId: string, allow: boolean): void;
  /**
   * Answers one pending interaction (kind `question` or `elicitation`) with a person's `response`; throws
   * `invalid_response` (nothing sent, still pending) when it does not fit the questions.
   */
  answerInteraction(requestId: string, response: unknown): void;
  /** Interrupts the active turn; pending permissions are retired. */
  cancel(): Promise<void>;
  /** argv of the native TUI attached to this exact session (run in the actor's PTY). */
  terminalArgv(): string[];
  /** Variables that TUI needs beside the actor's environment (e.g. a backend password, kept out of argv). */
  terminalEnv?(): Readonly<Record<string, string>>;
  /** Ends the provider process (TERM to its group, KILL after `graceMs`). */
  stop(graceMs?: number): Promise<ManagedExit>;
}

/** A stdio MCP server the provider session gets at creation and resume (the actor's own `cccc mcp`). */
export interface ManagedMcpServer {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface ManagedStartOptions {
  /** The actor's command: executable first, its arguments after. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** A private directory for this generation's listener socket. */
  readonly stateDir: string;
  /** Resume this provider session instead of creating one (fails rather than starting fresh). */
  readonly resumeSessionId?: string;
  /** A human-readable session name (Codex persists a named thread at once). */
  readonly sessionName: string;
  /** Session-scoped MCP servers (ACP `mcpServers`); runtimes wired through argv ignore it. */
  readonly mcpServers?: readonly ManagedMcpServer[];
}

/** Starts managed sessions of one runtime. */
export interface RuntimeAdapter {
  readonly runtime: string;
  /** Throws `ManagedLaunchError` for a command it cannot run managed (nothing is started). */
  plan(argv: readonly string[]): void;
  start(options: ManagedStartOptions): Promise<ManagedSession>;
}

export class ManagedLaunchError extends Error {
  constructor(
    readonly code: 'unsupported_command' | 'start_failed' | 'resume_failed',
    message: string,
  ) {
    super(message);
    this.name = 'ManagedLaunchError';
  }
}
