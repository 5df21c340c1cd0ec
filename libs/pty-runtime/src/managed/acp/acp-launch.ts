// What one ACP runtime needs from the generic session: how to run its agent on stdio, what to
// do once it answered `initialize`, and how to attach its native TUI to the exact session.

export interface AcpTerminal {
  readonly argv: string[];
  /** Variables the TUI needs beside the actor's environment (a backend password: never in argv). */
  readonly env: Readonly<Record<string, string>>;
}

/** What a runtime's own event stream reports to the session. */
export interface AcpObserver {
  /** A user input was persisted in this session: the prompt in flight is admitted. */
  onAdmission(): void;
  /** The stream was lost or malformed: the session is no longer observable. */
  onLost(why: string): void;
}

export interface AcpLaunch {
  readonly runtime: string;
  /** The agent process (executable first), serving ACP on its stdio. */
  readonly agentArgv: readonly string[];
  /** Variables set for the agent over the actor's environment. */
  readonly agentEnv: Readonly<Record<string, string>>;
  /** `session/set_config_option` `model` on new and resumed sessions (an explicit `--model`). */
  readonly model?: string;
  /**
   * The command selected an unrestricted policy (opencode `--auto`): a permission request the
   * agent still sends is answered with its one-time allow option at once, never surfaced.
   */
  readonly autoAllow?: boolean;
  /**
   * Cursor's blocking `cursor/ask_question` and `cursor/create_plan` requests are served: they
   * wait as interactions (kinds `question` / `plan`), never auto-answered.
   */
  readonly cursorExtensions?: boolean;
  /** `_meta` of `initialize`'s client capabilities and of new/load requests (runtime opt-ins). */
  readonly initializeMeta?: Readonly<Record<string, unknown>>;
  readonly sessionMeta?: Readonly<Record<string, unknown>>;
  /** After `initialize` answered: e.g. find the agent's loopback backend. Throws to fail the start. */
  ready?(pid: number): Promise<void>;
  /**
   * Starts observing the runtime's own ordered event stream for `sessionId` (resolves once it is
   * subscribed; returns its disposer). Optional: ACP updates and the prompt response suffice.
   */
  observe?(sessionId: string, cwd: string, observer: AcpObserver): Promise<() => void>;
  /** The native TUI attached to `sessionId`; null for a runtime without one. */
  terminal(sessionId: string, cwd: string): AcpTerminal | null;
}
