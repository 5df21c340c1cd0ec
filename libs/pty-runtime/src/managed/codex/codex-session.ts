import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Emitter } from '../../events.js';
import { ProviderProcess } from '../provider-process.js';
import {
  ManagedControlError,
  ManagedLaunchError,
  type ManagedDeliverOutcome,
  type ManagedExit,
  type ManagedPermission,
  type ManagedSession,
  type ManagedStartOptions,
  type ManagedState,
  type ManagedTurnEvent,
} from '../runtime-adapter.js';
import { appServerArgv, attachedTuiArgv, type CodexLaunchPlan } from './codex-launch.js';
import { INITIAL_CODEX_STATE, reduceCodexState, type CodexStateCore } from './codex-state.js';
import { CODEX_USER_INPUT_METHOD, NO_ANSWERS, QUESTION_KIND, questionsOf, questionSummary, userInputResponse } from './codex-interaction.js';
import { CODEX_PERMISSIONS_METHOD, PERMISSIONS_KIND, permissionsRequestOf, permissionsResponse, permissionsSummary } from './codex-permissions.js';
import { CODEX_ELICITATION_METHOD, ELICITATION_CANCELLED, ELICITATION_KIND, elicitationOf, elicitationResponse, elicitationSummary } from './codex-elicitation.js';
import { JsonRpcPeer, RpcError, type RpcServerRequest } from './json-rpc-peer.js';
import type { InitializeResponse } from './generated/InitializeResponse.js';
import type { ThreadStartParams } from './generated/v2/ThreadStartParams.js';
import type { ThreadStartResponse } from './generated/v2/ThreadStartResponse.js';
import type { ThreadResumeParams } from './generated/v2/ThreadResumeParams.js';
import type { ThreadResumeResponse } from './generated/v2/ThreadResumeResponse.js';
import type { TurnStartParams } from './generated/v2/TurnStartParams.js';
import type { TurnStartResponse } from './generated/v2/TurnStartResponse.js';
import type { TurnInterruptParams } from './generated/v2/TurnInterruptParams.js';
import type { ThreadSetNameParams } from './generated/v2/ThreadSetNameParams.js';
import type { CommandExecutionRequestApprovalParams } from './generated/v2/CommandExecutionRequestApprovalParams.js';
import type { FileChangeRequestApprovalParams } from './generated/v2/FileChangeRequestApprovalParams.js';

const CONNECT_TIMEOUT_MS = 20_000;

/** Server requests a person allows or denies; with the interactions below, anything else is refused (never left hanging). */
const APPROVALS: Record<string, string> = {
  'item/commandExecution/requestApproval': 'command',
  'item/fileChange/requestApproval': 'file_change',
};

/** A server request waiting on a person: how each answer (and a cancel) is replied to codex. */
interface PendingRequest {
  readonly permission: ManagedPermission;
  readonly rpcId: string | number;
  /** An allow/deny request (kinds command, file_change, permissions): its reply. */
  readonly decide?: (allow: boolean) => unknown;
  /** An interaction (kinds question, elicitation): its reply to a person's response; throws `invalid_response`. */
  readonly interact?: (response: unknown) => unknown;
  /** The reply when its turn is cancelled. */
  readonly cancelled: unknown;
}

const now = () => new Date().toISOString();

/**
 * One codex app-server (its own process group, listening on a private unix socket) and one
 * thread on it: created (and named at once, so its rollout is persisted and the TUI can attach)
 * or resumed. Deliveries are `turn/start`; state follows the thread's notifications.
 */
export class CodexAppServerSession implements ManagedSession {
  readonly runtime = 'codex';
  private core: CodexStateCore = INITIAL_CODEX_STATE;
  private updatedAt = now();
  private readonly approvals = new Map<string, PendingRequest>();
  private readonly stateEmitter = new Emitter<ManagedState>();
  private readonly turnEmitter = new Emitter<ManagedTurnEvent>();
  private readonly exitEmitter = new Emitter<ManagedExit>();
  private exitInfo: ManagedExit | undefined;
  /** Set when we end the process ourselves: the reason its exit reports. */
  private endReason: string | undefined;
  private readonly provider: ProviderProcess;
  readonly onStateChanged = this.stateEmitter.event;
  readonly onTurn = this.turnEmitter.event;
  readonly onExit = this.exitEmitter.event;
  private readonly exited$: Promise<ManagedExit>;
  sessionId = '';
  resumed = false;
  private peer: JsonRpcPeer | undefined;

  private constructor(
    private readonly plan: CodexLaunchPlan,
    private readonly child: ChildProcess,
    private readonly socketPath: string,
  ) {
    this.provider = new ProviderProcess(child, () => this.endReason, (exit) => this.finish(exit));
    this.exited$ = this.provider.exited.then(() => this.exitInfo!);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get exited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The last lines the app-server wrote to stderr (diagnostics; may name paths, never secrets we pass). */
  get diagnostics(): string {
    return this.provider.stderrTail;
  }

  static async start(plan: CodexLaunchPlan, options: ManagedStartOptions): Promise<CodexAppServerSession> {
    mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
    // A fresh name per generation: a stale socket of a killed server is never reused.
    const socketPath = join(options.stateDir, `app-server-${randomBytes(4).toString('hex')}.sock`);
    const [exe, ...args] = appServerArgv(plan, socketPath);
    const child = spawn(exe!, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    const session = new CodexAppServerSession(plan, child, socketPath);
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      await session.connect(options);
      return session;
    } catch (error) {
      await session.stop(1_000);
      if (error instanceof ManagedLaunchError) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new ManagedLaunchError('start_failed', `codex app-server did not start: ${why}${session.provider.stderrTail ? `\n${session.provider.stderrTail.slice(-800)}` : ''}`);
    }
  }

  private async connect(options: ManagedStartOptions): Promise<void> {
    const abort = new AbortController();
    const exitWatch = this.onExit(() => abort.abort());
    try {
      this.peer = await JsonRpcPeer.connectUnix(this.socketPath, CONNECT_TIMEOUT_MS, abort.signal);
    } finally {
      exitWatch[Symbol.dispose]();
    }
    const peer = this.peer;
    peer.onNotification(({ method, params }) => this.onNotification(method, params));
    peer.onRequest((request) => this.onServerRequest(request));
    peer.onClose(() => {
      // The protocol is the session: without it nothing is admitted or observed any more.
      if (this.endReason === undefined && !this.exited) void this.stop(2_000, 'connection_lost');
    });
    await peer.request<InitializeResponse>('initialize', { clientInfo: { name: 'cccc', title: 'CCCC', version: '0.1.0' } });
    peer.notify('initialized');
    const policy = {
      cwd: options.cwd,
      approvalPolicy: this.plan.approvalPolicy,
      sandbox: this.plan.sandbox,
      ...(this.plan.webSearch ? { config: { web_search: 'live' } } : {}),
    };
    if (options.resumeSessionId) {
      const params: ThreadResumeParams = { threadId: options.resumeSessionId, ...policy };
      try {
        const resumed = await peer.request<ThreadResumeResponse>('thread/resume', params);
        this.sessionId = resumed.thread.id;
        this.resumed = true;
      } catch (error) {
        throw new ManagedLaunchError('resume_failed', `codex thread ${options.resumeSessionId} could not be resumed: ${(error as Error).message}`);
      }
    } else {
      const params: ThreadStartParams = policy;
      const started = await peer.request<ThreadStartResponse>('thread/start', params);
      this.sessionId = started.thread.id;
      // codex writes a thread's rollout only at its first turn; naming it persists it now, so
      // the attached TUI (and a resume after a restart) finds the thread before any turn.
      const name: ThreadSetNameParams = { threadId: this.sessionId, name: options.sessionName };
      await peer.request('thread/name/set', name);
    }
    this.setCore({ state: 'idle', activeTurnId: null, reason: this.resumed ? 'app_server_thread_resumed' : 'app_server_thread_started' });
  }

  state(): ManagedState {
    return {
      session_id: this.sessionId,
      state: this.exited ? 'stopped' : this.core.state,
      working: !this.exited && (this.core.state === 'working' || this.core.state === 'waiting'),
      active_turn_id: this.core.activeTurnId,
      permissions: [...this.approvals.values()].map((a) => a.permission),
      reason: this.exited ? `app_server_${this.exitInfo!.reason}` : this.core.reason,
      updated_at: this.updatedAt,
    };
  }

  private setCore(next: CodexStateCore): void {
    if (next === this.core) return;
    this.core = next;
    this.updatedAt = now();
    this.stateEmitter.fire(this.state());
  }

  private onNotification(method: string, params: unknown): void {
    const p = (params ?? {}) as { threadId?: string; turn?: { id: string; status?: string; error?: { message?: string } | null }; requestId?: string | number };
    if (method === 'serverRequest/resolved') {
      for (const [token, pending] of this.approvals) if (pending.rpcId === p.requestId) this.approvals.delete(token);
    }
    const before = this.core;
    this.core = reduceCodexState(before, this.sessionId, method, params);
    if (p.threadId === this.sessionId && p.turn?.id) {
      if (method === 'turn/started') this.turnEmitter.fire({ phase: 'started', turnId: p.turn.id });
      if (method === 'turn/completed') {
        this.retireApprovals(p.turn.id);
        this.turnEmitter.fire({ phase: 'completed', turnId: p.turn.id, status: p.turn.status ?? 'completed', ...(p.turn.error?.message ? { error: p.turn.error.message } : {}) });
      }
    }
    if (this.core !== before || method === 'serverRequest/resolved') {
      this.updatedAt = now();
      this.stateEmitter.fire(this.state());
    }
  }

  private onServerRequest(request: RpcServerRequest): void {
    const params = (request.params ?? {}) as { threadId?: string; turnId?: string | null };
    const pending = params.threadId === this.sessionId ? this.pendingFor(request) : undefined;
    if (!pending) {
      this.peer?.respondError(request.id, -32601, `${request.method} is not handled by this client`);
      return;
    }
    // A turn-less request (an MCP elicitation codex could not correlate) belongs to the running turn, if any.
    const turnId = params.turnId ?? this.core.activeTurnId;
    const prefix = pending.interact ? 'ask' : 'perm';
    const token = `${prefix}_${randomBytes(12).toString('hex')}`;
    const permission: ManagedPermission = { request_id: token, turn_id: turnId, kind: pending.kind, summary: pending.summary, created_at: now() };
    this.approvals.set(token, { permission, rpcId: request.id, decide: pending.decide, interact: pending.interact, cancelled: pending.cancelled });
    this.updatedAt = now();
    this.stateEmitter.fire(this.state());
  }

  /** How one server request is shown and answered, or undefined when this client does not answer it. */
  private pendingFor(request: RpcServerRequest): (Pick<PendingRequest, 'decide' | 'interact' | 'cancelled'> & { kind: string; summary: Record<string, unknown> }) | undefined {
    const approvalKind = APPROVALS[request.method];
    if (approvalKind) {
      const params = request.params as Partial<CommandExecutionRequestApprovalParams & FileChangeRequestApprovalParams>;
      const summary: Record<string, unknown> = {};
      if (params.command) summary.command = params.command;
      if (params.cwd) summary.cwd = params.cwd;
      if (params.reason) summary.reason = params.reason;
      if (params.grantRoot) summary.grant_root = params.grantRoot;
      return { kind: approvalKind, summary, decide: (allow) => ({ decision: allow ? 'accept' : 'decline' }), cancelled: { decision: 'cancel' } };
    }
    switch (request.method) {
      case CODEX_PERMISSIONS_METHOD: {
        const asked = permissionsRequestOf(request.params);
        if (!asked) return undefined;
        return { kind: PERMISSIONS_KIND, summary: permissionsSummary(asked), decide: (allow) => permissionsResponse(asked, allow), cancelled: permissionsResponse(asked, false) };
      }
      case CODEX_USER_INPUT_METHOD: {
        const questions = questionsOf(request.params);
        if (!questions) return undefined;
        return { kind: QUESTION_KIND, summary: questionSummary(questions), interact: (response) => userInputResponse(questions, response), cancelled: NO_ANSWERS };
      }
      case CODEX_ELICITATION_METHOD: {
        const elicitation = elicitationOf(request.params);
        if (!elicitation) return undefined;
        return { kind: ELICITATION_KIND, summary: elicitationSummary(elicitation), interact: (response) => elicitationResponse(elicitation, response), cancelled: ELICITATION_CANCELLED };
      }
      default:
        return undefined;
    }
  }

  private retireApprovals(turnId?: string): void {
    for (const [token, pending] of this.approvals) if (turnId === undefined || pending.permission.turn_id === turnId) this.approvals.delete(token);
  }

  async deliver(text: string): Promise<ManagedDeliverOutcome> {
    const peer = this.peer;
    if (!peer || peer.isClosed || this.exited) return { outcome: 'failed', reason: 'not_running' };
    const params: TurnStartParams = { threadId: this.sessionId, input: [{ type: 'text', text, text_elements: [] }] };
    try {
      const result = await peer.request<TurnStartResponse>('turn/start', params);
      return { outcome: 'accepted', turnId: result.turn.id };
    } catch (error) {
      const rpc = error instanceof RpcError ? error : undefined;
      // A refusal answers the request: nothing started. A broken connection after sending may have started a turn.
      if (rpc?.maybeDelivered) return { outcome: 'ambiguous', reason: 'app_server_connection_lost' };
      return { outcome: 'failed', reason: `app_server_refused: ${(error as Error).message}` };
    }
  }

  answerPermission(requestId: string, allow: boolean): void {
    const pending = this.approvals.get(requestId);
    // An interaction is answered by `answerInteraction`, never by an allow/deny.
    if (!pending?.decide) throw new ManagedControlError('request_not_found', `no pending request ${requestId}`);
    if (!this.peer || this.exited) throw new ManagedControlError('not_running', 'the session is not running');
    this.approvals.delete(requestId);
    this.peer.respond(pending.rpcId, pending.decide(allow));
    this.updatedAt = now();
    this.stateEmitter.fire(this.state());
  }

  answerInteraction(requestId: string, response: unknown): void {
    const pending = this.approvals.get(requestId);
    if (!pending?.interact) throw new ManagedControlError('request_not_found', `no pending question ${requestId}`);
    if (!this.peer || this.exited) throw new ManagedControlError('not_running', 'the session is not running');
    const reply = pending.interact(response);
    this.approvals.delete(requestId);
    this.peer.respond(pending.rpcId, reply);
    this.updatedAt = now();
    this.stateEmitter.fire(this.state());
  }

  async cancel(): Promise<void> {
    const turnId = this.core.activeTurnId;
    if (!this.peer || this.exited) throw new ManagedControlError('not_running', 'the session is not running');
    if (!turnId) throw new ManagedControlError('no_active_turn', 'no turn is running');
    // Pending requests of the turn are answered as cancelled (no answers, nothing granted) so the provider never waits on them.
    for (const [token, pending] of this.approvals) {
      if (pending.permission.turn_id === turnId) {
        this.peer.respond(pending.rpcId, pending.cancelled);
        this.approvals.delete(token);
      }
    }
    const params: TurnInterruptParams = { threadId: this.sessionId, turnId };
    await this.peer.request('turn/interrupt', params);
  }

  terminalArgv(): string[] {
    return attachedTuiArgv(this.plan, this.socketPath, this.sessionId);
  }

  async stop(graceMs = 3_000, reason = 'stopped'): Promise<ManagedExit> {
    if (this.exitInfo) return this.exitInfo;
    this.endReason ??= reason;
    this.peer?.[Symbol.dispose]();
    await this.provider.terminate(graceMs);
    return this.exitInfo!;
  }

  private finish(exit: ManagedExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    this.retireApprovals();
    rmSync(this.socketPath, { force: true });
    this.exitEmitter.fire(exit);
    this.stateEmitter.fire(this.state());
  }
}
