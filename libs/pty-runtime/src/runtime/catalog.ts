import type { PasteSettle } from '../terminal/paste-settle.js';
import type { SubmitMode } from '../terminal/types.js';
import { findExecutable } from '../pty/which.js';

/** How a runtime is reached: a TUI in a PTY, or only a headless provider. */
export type RuntimeTransport = 'pty' | 'headless_only' | 'none';

export interface RuntimeSpec {
  readonly id: string;
  /** Default argv (REFERENCE_NOTES §4); empty for `custom` and runtimes without a command. */
  readonly command: readonly string[];
  readonly transport: RuntimeTransport;
  readonly submit: SubmitMode;
  /**
   * Evidence that a paste was taken in before Enter (README "Submit"): only where verified with
   * the real CLI; without it the daemon waits its fixed submit delay.
   */
  readonly pasteSettle?: PasteSettle;
  /** Extra Enters after the first (copilot needs a second \r 200 ms later). */
  readonly submitRepeat?: { readonly count: number; readonly gapMs: number };
  /** The system prompt gets an MCP setup request block first (no automatic MCP wiring). */
  readonly mcpSetupPrompt: boolean;
  /** Supports the headless runner as well as pty. */
  readonly headless: boolean;
  /**
   * The start-up prompt goes with the first task, as one submission (spec §8.4: an agent TUI
   * never gets a standalone start-up turn); false only for custom programs, which keep the
   * separate preamble submission.
   */
  readonly preambleWithFirstTask: boolean;
}

const pty = (id: string, command: string[], extra: Partial<RuntimeSpec> = {}): RuntimeSpec => ({
  id,
  command,
  transport: 'pty',
  submit: 'enter',
  mcpSetupPrompt: false,
  headless: false,
  preambleWithFirstTask: true,
  ...extra,
});

/**
 * Claude Code and Codex redraw their input box right after a bracketed paste; 150 ms without
 * output after that is their paste taken in (daemon-claude / daemon-codex real-CLI suites).
 */
const TUI_PASTE_SETTLE: PasteSettle = { quietMs: 150 };

/**
 * Claude Code must show the paste itself first: its `[Pasted text #N …]` placeholder, or the
 * text where it was read as typed input. A claude still starting up redraws on its own, and an
 * Enter that followed quiet after such a redraw was seen dropped with the paste left in the
 * input box (delivery matrix, fresh launch, 2 of 11 runs); the echo can take seconds to come then.
 */
const CLAUDE_PASTE_SETTLE: PasteSettle = { quietMs: 150, echo: { placeholders: ['[Pasted text #'], waitMs: 8_000 } };

/** Every runtime of REFERENCE_NOTES §4, in its table order. */
export const RUNTIME_CATALOG: readonly RuntimeSpec[] = [
  pty('claude', ['claude', '--dangerously-skip-permissions'], { headless: true, pasteSettle: CLAUDE_PASTE_SETTLE }),
  pty('codex', ['codex', '-c', 'shell_environment_policy.inherit=all', '--dangerously-bypass-approvals-and-sandbox', '--search'], { headless: true, pasteSettle: TUI_PASTE_SETTLE }),
  pty('cline', ['cline', '--tui', '--auto-approve', 'true']),
  pty('copilot', ['copilot', '--allow-all'], { submitRepeat: { count: 2, gapMs: 200 } }),
  pty('cursor', ['cursor-agent', '--yolo', '--approve-mcps'], { mcpSetupPrompt: true }),
  pty('devin', ['devin', '--permission-mode', 'dangerous']),
  pty('kiro', ['kiro-cli', 'chat', '--trust-all-tools']),
  pty('droid', ['droid', '--auto', 'high']),
  pty('grok', ['grok', '--always-approve']),
  pty('hermes', ['hermes', '--tui', '--yolo']),
  pty('kimi', ['kimi', '--yolo']),
  pty('opencode', ['opencode', '--auto']),
  pty('antigravity', ['agy', '--dangerously-skip-permissions'], { mcpSetupPrompt: true }),
  pty('amp', ['amp']),
  pty('auggie', ['auggie']),
  pty('kilo', ['kilo'], { mcpSetupPrompt: true }),
  { id: 'deepseek', command: ['dsh-acp-demo'], transport: 'headless_only', submit: 'none', mcpSetupPrompt: false, headless: true, preambleWithFirstTask: true },
  { id: 'web_model', command: [], transport: 'none', submit: 'none', mcpSetupPrompt: false, headless: true, preambleWithFirstTask: true },
  { id: 'custom', command: [], transport: 'pty', submit: 'enter', mcpSetupPrompt: false, headless: false, preambleWithFirstTask: false },
];

const byId = new Map(RUNTIME_CATALOG.map((r) => [r.id, r]));

/** The spec of a runtime; an unknown runtime is a PTY runtime whose command is its own name. */
export function getRuntime(id: string): RuntimeSpec {
  return byId.get(id) ?? pty(id, [id]);
}

export function isKnownRuntime(id: string): boolean {
  return byId.has(id);
}

export interface InstalledCheck {
  readonly runtime: string;
  /** The binary looked for (argv[0] of the default command), if the runtime has one. */
  readonly binary: string | undefined;
  readonly installed: boolean;
  readonly path: string | undefined;
}

/** For `cccc runtime list` / `cccc doctor`: is the runtime's CLI on PATH? */
export function detectInstalled(runtime: string, pathValue: string | undefined = process.env.PATH): InstalledCheck {
  const binary = getRuntime(runtime).command[0];
  const path = binary ? findExecutable(binary, pathValue) : undefined;
  return { runtime, binary, installed: path !== undefined, path };
}
