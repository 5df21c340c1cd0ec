import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import type {
  ClientConnection,
  InitializeResponse,
  McpServer,
  PermissionOption,
  PromptResponse,
  RequestPermissionResponse,
  SessionNotification,
} from '@agentclientprotocol/sdk';
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
import type { AcpLaunch } from './acp-launch.js';
import { chooseOption, permissionKindOf, permissionSummaryOf, turnStatusOf } from './acp-mapping.js';
import {
  CANCELLED,
  CURSOR_ASK_QUESTION,
  CURSOR_CREATE_PLAN,
  CursorAskQuestionParams,
  CursorCreatePlanParams,
  planResult,
  planSummary,
  questionResult,
  questionSummary,
} from './cursor-interactions.js';
import { GROK_SESSION_UPDATE, GrokNotificationParams, GrokTurnCorrelator, grokRecordOf, type SettleStatus } from './grok-correlator.js';

const START_TIMEOUT_MS = 60_000;
/** ACP accepts one `session/prompt` at a time: later deliveries wait here, in order. */
const MAX_QUEUED = 32;

/** Updates that are the agent working on the prompt in flight (not session metadata). */
const TURN_ACTIVITY = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);

interface QueuedDelivery {
  readonly text: string;
  readonly settle: (outcome: ManagedDeliverOutcome) => void;
}

interface ActiveTurn {
  readonly id: string;
  admitted: boolean;
  readonly settle: (outcome: ManagedDeliverOutcome) => void;
}

/** A permission (answered allow/deny) or an interaction (answered with a response) waiting on a person. */
interface PendingPermission {
  readonly permission: ManagedPermission;
  /** A permission's options; absent for an interaction. */
  readonly options?: readonly PermissionOption[];
  /** An interaction's answer as the agent's result; throws `invalid_response` (it stays pending). */
  readonly answer?: (response: unknown) => unknown;
  /** Every pending request takes `{ outcome: { outcome: "cancelled" } }` when retired. */
  readonly respond: (response: unknown) => void;
}

const now = () => new Date().toISOString();
const token = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * One ACP agent process (its own process group, ACP over its stdio) and one session on it,
 * created (`session/new`) or resumed (`session/resume`, else `session/load`; never a silent
 * fresh start). A delivery is one `session/prompt`: admitted on the first turn activity of this
 * session or on the prompt's response, failed when refused before that, ambiguous when the
 * connection is lost before either. Turn ids are ours (ACP has none).
 */
export class AcpSession implements ManagedSession {
  private readonly stateEmitter = new Emitter<ManagedState>();
  private readonly turnEmitter = new Emitter<ManagedTurnEvent>();
  private readonly exitEmitter = new Emitter<ManagedExit>();
  readonly onStateChanged = this.stateEmitter.event;
  readonly onTurn = this.turnEmitter.event;
  readonly onExit = this.exitEmitter.event;
  private readonly exited$: Promise<ManagedExit>;
  private readonly permissions = new Map<string, PendingPermission>();
  private readonly queue: QueuedDelivery[] = [];
  private active: ActiveTurn | null = null;
  private exitInfo: ManagedExit | undefined;
  private endReason: string | undefined;
  private readonly provider: ProviderProcess;
  private reason = 'starting';
  private updatedAt = now();
  private lastFired = '';
  private conn: ClientConnection | undefined;
  private stopObserving: (() => void) | undefined;
  sessionId = '';
  resumed = false;
  /** Grok: which local turn a record belongs to and when it is settled (null for other runtimes). */
  private readonly grok: GrokTurnCorrelator | null;
  /** Grok: records arriving while `session/load` runs are replayed history. */
  private replaying = false;
  /** Grok: a prompt RPC still unanswered (a turn settled by turn_completed may precede it): no next prompt yet. */
  private rpcPending = false;
  /** Grok: a turn begun by input typed in the native TUI. */
  private nativeTurn: string | null = null;

  private constructor(
    private readonly launch: AcpLaunch,
    private readonly child: ChildProcess,
    private readonly cwd: string,
  ) {
    this.provider = new ProviderProcess(child, () => this.endReason, (exit) => this.finish(exit));
    this.exited$ = this.provider.exited.then(() => this.exitInfo!);
    this.grok = launch.grokCorrelation ? new GrokTurnCorrelator() : null;
  }

  get runtime(): string {
    return this.launch.runtime;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get exited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The agent's last stderr lines (diagnostics). */
  get diagnostics(): string {
    return this.provider.stderrTail;
  }

  static async start(launch: AcpLaunch, options: ManagedStartOptions): Promise<AcpSession> {
    const [exe, ...args] = launch.agentArgv;
    const child = spawn(exe!, args, { cwd: options.cwd, env: { ...options.env, ...launch.agentEnv }, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const session = new AcpSession(launch, child, options.cwd);
    const timer = setTimeout(() => void session.stop(1_000, 'start_timeout'), START_TIMEOUT_MS);
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      await Promise.race([session.connect(options), session.exited$.then((e) => Promise.reject(new Error(`agent exited (${e.reason}, code ${e.code})`)))]);
      return session;
    } catch (error) {
      await session.stop(1_000);
      if (error instanceof ManagedLaunchError) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new ManagedLaunchError('start_failed', `${launch.runtime} ACP agent did not start: ${why}${session.provider.stderrTail ? `\n${session.provider.stderrTail.slice(-800)}` : ''}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private async connect(options: ManagedStartOptions): Promise<void> {
    // The SDK (its generated schemas are ~3 MB of heap) loads with the first ACP session, not
    // with every daemon that never runs one.
    const { client, ndJsonStream } = await import('@agentclientprotocol/sdk');
    const app = client({ name: 'cccc' })
      .onNotification('session/update', ({ params }) => this.onUpdate(params))
      .onRequest('session/request_permission', ({ params, signal }) =>
        new Promise<RequestPermissionResponse>((resolve) => {
          if (params.sessionId !== this.sessionId || this.exited) return resolve({ outcome: { outcome: 'cancelled' } });
          this.admit(); // asking for a permission is the agent working on the prompt in flight
          if (this.launch.autoAllow) {
            const option = chooseOption(params.options, true);
            return resolve(option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } });
          }
          const request_id = token('perm');
          this.permissions.set(request_id, {
            permission: { request_id, turn_id: this.active?.id ?? null, kind: permissionKindOf(params), summary: permissionSummaryOf(params), created_at: now() },
            options: params.options,
            // What it is answered with: a selected option, or the shared cancelled outcome.
            respond: (response) => resolve(response as RequestPermissionResponse),
          });
          signal.addEventListener('abort', () => {
            if (this.permissions.delete(request_id)) this.changed('session/request_permission:withdrawn');
          });
          this.changed('session/request_permission');
        }),
      );
    if (this.launch.cursorExtensions) {
      // Blocking questions and plans stay a person's decision, even under an unrestricted policy.
      app
        .onRequest(CURSOR_ASK_QUESTION, CursorAskQuestionParams, ({ params, signal }) => this.interaction('question', questionSummary(params), (r) => questionResult(params, r), signal))
        .onRequest(CURSOR_CREATE_PLAN, CursorCreatePlanParams, ({ params, signal }) => this.interaction('plan', planSummary(params), planResult, signal));
    }
    if (this.grok) app.onNotification(GROK_SESSION_UPDATE, GrokNotificationParams, ({ params }) => this.onGrokRecord(params));
    const stdin = Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>;
    const stdout = Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>;
    const conn = app.connect(ndJsonStream(stdin, stdout));
    this.conn = conn;
    const meta = this.launch.initializeMeta ? { _meta: { ...this.launch.initializeMeta } } : {};
    const init: InitializeResponse = await conn.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { ...meta } });
    await this.launch.ready?.(this.pid);
    const sessionMeta = this.launch.sessionMeta ? { _meta: { ...this.launch.sessionMeta } } : {};
    // The actor's own MCP server, on new and resumed sessions alike (never the agent's global config).
    const mcpServers: McpServer[] = (options.mcpServers ?? []).map((m) => ({ name: m.name, command: m.command, args: [...m.args], env: Object.entries(m.env).map(([name, value]) => ({ name, value })) }));
    if (options.resumeSessionId) {
      const sessionId = options.resumeSessionId;
      const request = { sessionId, cwd: options.cwd, mcpServers, ...sessionMeta };
      this.replaying = true; // what a load sends before it answers is history, never new input
      try {
        if (init.agentCapabilities?.sessionCapabilities?.resume) await conn.agent.request('session/resume', request);
        else if (init.agentCapabilities?.loadSession) await conn.agent.request('session/load', request);
        else throw new Error('the agent can neither resume nor load a session');
      } catch (error) {
        // A failed load never becomes a silent fresh session.
        throw new ManagedLaunchError('resume_failed', `${this.runtime} session ${sessionId} could not be resumed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.replaying = false;
      }
      this.sessionId = sessionId;
      this.resumed = true;
    } else {
      const created = await conn.agent.request('session/new', { cwd: options.cwd, mcpServers, ...sessionMeta });
      this.sessionId = created.sessionId;
    }
    if (this.launch.model) await conn.agent.request('session/set_config_option', { sessionId: this.sessionId, configId: 'model', value: this.launch.model });
    if (this.launch.observe) {
      // Subscribed before the session counts as ready: no input can precede the listener.
      this.stopObserving = await this.launch.observe(this.sessionId, options.cwd, {
        onAdmission: () => {
          if (!this.active || this.active.admitted) return;
          this.admit();
          this.changed('backend:message.updated');
        },
        // The agent dying ends the stream too: that exit, seen first, keeps its own reason.
        onLost: () => void setTimeout(() => void (this.exitInfo ? undefined : this.stop(1_000, 'observer_lost')), 500).unref(),
      });
    }
    this.changed('session/ready');
  }

  state(): ManagedState {
    const permissions = [...this.permissions.values()].map((p) => p.permission);
    const state = this.exitInfo ? 'stopped' : !this.sessionId ? 'starting' : permissions.length > 0 ? 'waiting' : this.active || this.nativeTurn ? 'working' : 'idle';
    return {
      session_id: this.sessionId,
      state,
      working: state === 'working' || state === 'waiting',
      active_turn_id: this.exitInfo ? null : (this.active?.id ?? this.nativeTurn ?? null),
      permissions,
      reason: this.reason,
      updated_at: this.updatedAt,
    };
  }

  deliver(text: string): Promise<ManagedDeliverOutcome> {
    if (this.exitInfo || !this.conn) return Promise.resolve({ outcome: 'failed', reason: 'not_running' });
    if (this.queue.length >= MAX_QUEUED) return Promise.resolve({ outcome: 'failed', reason: 'queue_full' });
    return new Promise((settle) => {
      this.queue.push({ text, settle });
      this.pump();
    });
  }

  /** Sends the next queued delivery when no prompt is in flight. */
  private pump(): void {
    // A closed connection sends nothing more: the exit fails what is still queued (never sent).
    if (this.active || this.rpcPending || this.nativeTurn || this.exitInfo || !this.conn || this.conn.signal.aborted) return;
    const next = this.queue.shift();
    if (!next) return;
    const turn: ActiveTurn = { id: token('turn'), admitted: false, settle: next.settle };
    this.active = turn;
    if (this.grok) {
      this.grok.controlledSent(turn.id);
      this.rpcPending = true;
    }
    this.changed('session/prompt:sent');
    this.conn.agent.request('session/prompt', { sessionId: this.sessionId, prompt: [{ type: 'text', text: next.text }] }).then(
      (response) => this.endTurn(turn, response),
      (error: unknown) => this.failTurn(turn, error),
    );
  }

  /** The prompt in flight is admitted: first evidence the agent took it. */
  private admit(): void {
    const turn = this.active;
    if (!turn || turn.admitted) return;
    turn.admitted = true;
    turn.settle({ outcome: 'accepted', turnId: turn.id });
    this.turnEmitter.fire({ phase: 'started', turnId: turn.id });
  }

  private onUpdate(notification: SessionNotification): void {
    if (this.grok) return this.onGrokRecord(notification);
    // Another session's or a replayed update (no prompt in flight) never admits work.
    if (notification.sessionId !== this.sessionId || !this.active) return;
    const kind = notification.update.sessionUpdate;
    if (!TURN_ACTIVITY.has(kind)) return;
    const first = !this.active.admitted;
    this.admit();
    if (first) this.changed(`session/update:${kind}`);
  }

  private endTurn(turn: ActiveTurn, response: PromptResponse): void {
    // Grok: a delayed response settles nothing the correlator already settled (nor a newer turn).
    if (this.grok && !this.grokResponse(turn, response.stopReason)) return;
    if (this.active !== turn) return;
    this.admit();
    this.active = null;
    this.retirePermissions(turn.id);
    const status = turnStatusOf(response.stopReason);
    this.turnEmitter.fire({ phase: 'completed', turnId: turn.id, status, ...(status === 'failed' ? { error: response.stopReason } : {}) });
    this.changed(`session/prompt:${response.stopReason}`);
    this.pump();
  }

  private failTurn(turn: ActiveTurn, error: unknown): void {
    if (this.grok && !this.grokResponse(turn, 'error')) return;
    if (this.active !== turn) return;
    this.active = null;
    this.retirePermissions(turn.id);
    const message = error instanceof Error ? error.message : String(error);
    // The SDK aborts the connection's signal before it rejects what was pending on it: a prompt
    // rejected that way was lost with the connection, not refused by the agent.
    if (this.exitInfo || this.conn?.signal.aborted) {
      // Lost with the connection: whether the agent took it cannot be known.
      if (!turn.admitted) turn.settle({ outcome: 'ambiguous', reason: 'connection_lost' });
    } else if (!turn.admitted) {
      turn.settle({ outcome: 'failed', reason: message.slice(0, 500) });
    }
    if (turn.admitted) this.turnEmitter.fire({ phase: 'completed', turnId: turn.id, status: 'failed', error: message.slice(0, 4096) });
    this.changed('session/prompt:error');
    this.pump();
  }

  /** Grok: the prompt RPC answered; true when it still settles its own turn. */
  private grokResponse(turn: ActiveTurn, stopReason: string): boolean {
    this.rpcPending = false;
    if (this.grok!.promptResponse(turn.id, stopReason).action === 'settle') return true;
    this.pump();
    return false;
  }

  /** Grok: one `session/update` or `_x.ai/session/update` record, through the correlator. */
  private onGrokRecord(params: unknown): void {
    const parsed = grokRecordOf(params, this.replaying);
    if (!parsed || parsed.sessionId !== this.sessionId || this.exitInfo) return;
    const decision = this.grok!.record(parsed.record);
    if (decision.action === 'admit') {
      if (decision.origin === 'controlled' && this.active?.id === decision.turnId) this.admit();
      else if (decision.origin === 'native') {
        this.nativeTurn = decision.turnId;
        this.turnEmitter.fire({ phase: 'started', turnId: decision.turnId });
      }
      this.changed(`grok:${parsed.record.kind}`);
    } else if (decision.action === 'settle') {
      if (this.active?.id === decision.turnId) this.settleActive(this.active, decision.status, `grok:${parsed.record.kind}`);
      else if (this.nativeTurn === decision.turnId) {
        this.nativeTurn = null;
        this.turnEmitter.fire({ phase: 'completed', turnId: decision.turnId, status: decision.status });
        this.changed(`grok:${parsed.record.kind}`);
        this.pump();
      }
    }
  }

  /** Grok: the active controlled turn settled by a correlated terminal or a send_now cancellation. */
  private settleActive(turn: ActiveTurn, status: SettleStatus, reason: string): void {
    this.admit(); // the provider ended it: it had taken the prompt
    this.active = null;
    this.retirePermissions(turn.id);
    this.turnEmitter.fire({ phase: 'completed', turnId: turn.id, status, ...(status === 'failed' ? { error: reason } : {}) });
    this.changed(reason);
    this.pump(); // waits for the old prompt RPC (rpcPending) before the next prompt is sent
  }

  answerPermission(requestId: string, allow: boolean): void {
    const pending = this.permissions.get(requestId);
    if (!pending?.options) throw new ManagedControlError('request_not_found', `no pending request ${requestId}`);
    const option = chooseOption(pending.options, allow);
    this.permissions.delete(requestId);
    pending.respond(option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } });
    this.changed('session/request_permission:answered');
  }

  answerInteraction(requestId: string, response: unknown): void {
    // Standard ACP asks nothing outside permissions; Cursor's extensions do (cursorExtensions).
    const pending = this.permissions.get(requestId);
    if (!pending?.answer) throw new ManagedControlError('request_not_found', `no pending question ${requestId}`);
    const result = pending.answer(response); // an answer that does not fit changes nothing
    this.permissions.delete(requestId);
    pending.respond(result);
    this.changed('interaction:answered');
  }

  /**
   * A blocking provider question or plan review, pending under an opaque token bound to the
   * prompt in flight; outside a turn, or once the session ended, it is cancelled at once.
   */
  private interaction(kind: 'question' | 'plan', summary: Record<string, unknown>, answer: (response: unknown) => unknown, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve) => {
      if (this.exited || !this.active) return resolve(CANCELLED);
      this.admit(); // asking is the agent working on the prompt in flight
      const request_id = token(kind === 'question' ? 'ask' : 'plan');
      this.permissions.set(request_id, { permission: { request_id, turn_id: this.active.id, kind, summary, created_at: now() }, answer, respond: resolve });
      signal.addEventListener('abort', () => {
        if (this.permissions.delete(request_id)) this.changed(`${kind}:withdrawn`);
      });
      this.changed(kind === 'question' ? CURSOR_ASK_QUESTION : CURSOR_CREATE_PLAN);
    });
  }

  async cancel(): Promise<void> {
    if (this.exitInfo || !this.conn) throw new ManagedControlError('not_running', 'the session is not running');
    const turn = this.active;
    if (!turn) throw new ManagedControlError('no_active_turn', 'no active turn');
    this.retirePermissions(turn.id);
    // Queued deliveries go back to the ledger (failed, retried from there), never replayed here.
    for (const queued of this.queue.splice(0)) queued.settle({ outcome: 'failed', reason: 'cancelled' });
    this.changed('session/cancel');
    // Grok send_now: the old turn is settled before any next input can be associated with a turn.
    if (this.grok && this.grok.cancel().action === 'settle') this.settleActive(turn, 'interrupted', 'session/cancel:settled');
    await this.conn.agent.notify('session/cancel', { sessionId: this.sessionId });
  }

  terminalArgv(): string[] {
    return this.launch.terminal(this.sessionId, this.cwd)?.argv ?? [];
  }

  terminalEnv(): Readonly<Record<string, string>> {
    return this.launch.terminal(this.sessionId, this.cwd)?.env ?? {};
  }

  async stop(graceMs = 3_000, reason = 'stopped'): Promise<ManagedExit> {
    if (this.exitInfo) return this.exitInfo;
    this.endReason ??= reason;
    this.stopObserving?.();
    await this.provider.terminate(graceMs);
    return this.exitInfo!;
  }

  private retirePermissions(turnId: string | null): void {
    for (const [id, pending] of this.permissions) {
      if (turnId !== null && pending.permission.turn_id !== turnId) continue;
      this.permissions.delete(id);
      pending.respond(CANCELLED);
    }
  }

  /** Fires a state change when what a reader sees changed (not on every update). */
  private changed(reason: string): void {
    const s = this.state();
    const key = `${s.state}|${s.active_turn_id}|${s.permissions.map((p) => p.request_id).join(',')}`;
    if (key === this.lastFired) return;
    this.lastFired = key;
    this.reason = reason;
    this.updatedAt = now();
    this.stateEmitter.fire(this.state());
  }

  private finish(exit: ManagedExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    this.retirePermissions(null);
    const turn = this.active;
    this.active = null;
    if (turn && !turn.admitted) turn.settle({ outcome: 'ambiguous', reason: 'connection_lost' });
    if (turn?.admitted) this.turnEmitter.fire({ phase: 'completed', turnId: turn.id, status: 'failed', error: `agent exited (${exit.reason})` });
    if (this.nativeTurn) this.turnEmitter.fire({ phase: 'completed', turnId: this.nativeTurn, status: 'failed', error: `agent exited (${exit.reason})` });
    this.nativeTurn = null;
    for (const queued of this.queue.splice(0)) queued.settle({ outcome: 'failed', reason: 'not_running' });
    this.stopObserving?.();
    this.conn?.close();
    this.exitEmitter.fire(exit);
    this.changed(`exit:${exit.reason}`);
  }
}
