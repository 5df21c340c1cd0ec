// What one ACP runtime needs from the generic session: how to run its agent on stdio, what to
// do once it answered `initialize`, and how to attach its native TUI to the exact session.

export interface AcpTerminal {
  readonly argv: string[];
  /** Variables the TUI needs beside the actor's environment (a backend password: never in argv). */
  readonly env: Readonly<Record<string, string>>;
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
  /** `_meta` of `initialize`'s client capabilities and of new/load requests (runtime opt-ins). */
  readonly initializeMeta?: Readonly<Record<string, unknown>>;
  readonly sessionMeta?: Readonly<Record<string, unknown>>;
  /** After `initialize` answered: e.g. find the agent's loopback backend. Throws to fail the start. */
  ready?(pid: number): Promise<void>;
  /** The native TUI attached to `sessionId`; null for a runtime without one. */
  terminal(sessionId: string, cwd: string): AcpTerminal | null;
}
