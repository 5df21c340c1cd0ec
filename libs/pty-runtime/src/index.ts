// @cccc/pty-runtime: agents as live terminals. Domain only: no sockets, no IPC handlers, no ledger.
// The daemon composes these pieces; `./testing` has the fake PTY and the PtySession contract suite.

// Events and disposables
export { Emitter, DisposableStore, toDisposable, type Event, type Listener } from './events.js';

// PTY sessions (one interface, node-pty behind it)
export {
  PtyWriteError,
  PtySpawnError,
  type PtySession,
  type PtySpawner,
  type PtySpawnOptions,
  type PtyExit,
  type PtyWriteErrorCode,
  type PtySpawnErrorCode,
} from './pty/pty-session.js';
export { spawnNodePty } from './pty/node-pty-session.js';
export { defaultPtySpawner, stopPtySession, type StopOptions } from './pty/spawner.js';
export { findExecutable } from './pty/which.js';

// Output ring (byte cursors)
export { OutputRing, DEFAULT_RING_CAP_BYTES, type OutputRingOptions, type RingPage, type ReadOptions } from './ring/output-ring.js';

// Rendering on request and the §8.11 terminal ops
export { renderBytes, type RenderedScreen, type RenderOptions, type RenderSize } from './render/headless-render.js';
export {
  terminalTail,
  terminalSnapshot,
  terminalReplay,
  terminalHistory,
  terminalSince,
  terminalClear,
  renderAttachSnapshot,
  DEFAULT_TAIL_MAX_CHARS,
  DEFAULT_PAGE_LIMIT_BYTES,
  DEFAULT_SNAPSHOT_LIMIT_BYTES,
  HISTORY_RANGE_CAP_BYTES,
  type TerminalSource,
  type TailOptions,
  type TailResult,
  type SnapshotResult,
  type AttachSnapshot,
  type ReplayOptions,
  type ReplayResult,
  type HistoryOptions,
  type HistoryResult,
  type HistoryPage,
} from './render/terminal-ops.js';
export { compactLines, stripAnsi } from './render/text-shaping.js';
export { canReadTranscript, type TranscriptVisibility, type TranscriptViewer } from './render/visibility.js';

// Terminal controller per actor
export {
  ActorTerminal,
  InputTransaction,
  DEFAULT_SUBMIT_DELAY_MS,
  SESSION_ENDING,
  type ActorTerminalOptions,
  type LaunchSpec,
  type SubmitOptions,
  type InputWriteResult,
} from './terminal/actor-terminal.js';
export { TerminalSession, type TerminalSessionOptions, type OutputChunk } from './terminal/terminal-session.js';
export { AttachmentRegistry, type AttachMode, type AttachRequest, type AttachmentGrant, type WriterChange } from './terminal/attachments.js';
export { validateTermSize, validateSnapshotHint, DEFAULT_COLS, DEFAULT_ROWS, type SizeCheck } from './terminal/size.js';
export { buildPastePayload, stripTrailingNewlines, submitKey, PASTE_START, PASTE_END } from './terminal/submit-payload.js';
export { watchPasteSettle, type PasteSettle, type PasteSettleWatch, type SubmitWait } from './terminal/paste-settle.js';
export { PasteEchoScanner, pastedHead, visibleText, type PasteEcho } from './terminal/paste-echo.js';
export { SequenceScanner } from './terminal/sequence-scanner.js';
export type { SubmitMode, SubmitOutcome } from './terminal/types.js';

// Runtimes and launch
export { RUNTIME_CATALOG, getRuntime, isKnownRuntime, detectInstalled, type RuntimeSpec, type RuntimeTransport, type InstalledCheck } from './runtime/catalog.js';
export {
  composeLaunch,
  assertLaunchCwd,
  LaunchError,
  type LaunchBase,
  type LaunchCommand,
  type LaunchContributor,
  type LaunchErrorCode,
  type Env,
} from './runtime/launch.js';

// Delivery rendering
export type { DeliveredMessage, DeliveredAttachment, DeliveredNotify } from './delivery/message.js';
export { renderChatMessage, renderHeader, renderBody, mailPendingLine, type RenderMessageOptions } from './delivery/render-message.js';
export { renderDeliveryBatch, renderSystemNotify, mailNotice, REPLY_INSTRUCTION, type DeliveryItem, type RenderBatchOptions } from './delivery/render-batch.js';
export { buildSystemPrompt, DEFAULT_PREAMBLE, type SystemPromptInput, type TeamMember, type PromptScope } from './delivery/system-prompt.js';

// Managed runtimes (the provider's session protocol beside the PTY): Codex through its app-server
export {
  ManagedControlError,
  ManagedLaunchError,
  type ManagedWorkState,
  type ManagedPermission,
  type ManagedState,
  type ManagedDeliverOutcome,
  type ManagedTurnEvent,
  type ManagedExit,
  type ManagedSession,
  type ManagedStartOptions,
  type ManagedMcpServer,
  type RuntimeAdapter,
} from './managed/runtime-adapter.js';
export { codexAppServerAdapter } from './managed/codex/codex-adapter.js';
export { CodexAppServerSession } from './managed/codex/codex-session.js';
export { planCodexLaunch, isCodexExecutable, appServerArgv, attachedTuiArgv, type CodexLaunchPlan } from './managed/codex/codex-launch.js';
export { reduceCodexState, INITIAL_CODEX_STATE, type CodexStateCore } from './managed/codex/codex-state.js';
export { grokAcpAdapter, kiloAcpAdapter, opencodeAcpAdapter } from './managed/acp/acp-adapter.js';
export { AcpSession } from './managed/acp/acp-session.js';
export { headlessAcpAdapter } from './managed/acp/headless-acp-adapter.js';
export {
  planHeadlessAcpLaunch,
  headlessAcpLaunch,
  isHeadlessAcpRuntime,
  antigravityProviderHome,
  HEADLESS_ACP_RUNTIMES,
  type HeadlessAcpRuntime,
  type HeadlessAcpPlan,
} from './managed/acp/headless-acp-launch.js';
export type { AcpLaunch, AcpTerminal } from './managed/acp/acp-launch.js';
export { chooseOption, permissionKindOf, permissionSummaryOf, turnStatusOf } from './managed/acp/acp-mapping.js';
export { planOpencodeLaunch, isOpencodeExecutable, checkOpencodeVersion, compareVersions, opencodeAcpLaunch, OPENCODE_VERSION_FLOOR, OPENCODE_FLAVOR, KILO_FLAVOR, type OpencodeLaunchPlan, type OpencodeFlavor } from './managed/acp/opencode-launch.js';
export { loopbackListenPorts, processGroupMembers } from './managed/acp/loopback-listener.js';
export { GrokTurnCorrelator, grokRecordOf, GROK_SESSION_UPDATE, type GrokRecord, type Decision as GrokDecision } from './managed/acp/grok-correlator.js';
export { planGrokLaunch, grokAcpLaunch, grokTuiArgs, GROK_INITIALIZE_META, GROK_SESSION_META, type GrokLaunchPlan } from './managed/acp/grok-launch.js';
export { questionsOf, questionSummary, userInputResponse, QUESTION_KIND, CODEX_USER_INPUT_METHOD, type CodexQuestions } from './managed/codex/codex-interaction.js';
