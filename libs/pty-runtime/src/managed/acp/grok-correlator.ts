// §8.4 Grok ACP observer: which local turn a Grok ACP record belongs to, and when a turn is
// settled. Pure (no IO, no clock): the session feeds it what it saw and acts on what it returns.
// Built against the spec; no Grok CLI can be installed here, so the record shapes (`_meta.promptId`,
// `turn_completed`, `_x.ai/session/update`, `prompt_complete`) are untested on the real binary.

import { z } from 'zod';

/** The extension notification Grok uses for durable session records beside `session/update`. */
export const GROK_SESSION_UPDATE = '_x.ai/session/update';

/** `_x.ai/session/update` params: a session/update shape whose kinds ACP does not define. */
export const GrokNotificationParams = z.looseObject({ sessionId: z.string(), update: z.looseObject({ sessionUpdate: z.string() }) });
export type GrokNotificationParams = z.infer<typeof GrokNotificationParams>;

/** One ACP record as the observer saw it (either method), reduced to what correlation needs. */
export interface GrokRecord {
  /** `sessionUpdate` kind: `user_message_chunk`, `agent_message_chunk`, `turn_completed`, `prompt_complete`, … */
  readonly kind: string;
  /** `_meta.promptId`, when the record carries one. */
  readonly promptId?: string;
  /** The persisted session-scoped event sequence (`_meta.seq`), when the record carries one. */
  readonly seq?: number;
  /** Replayed history (during `session/load`, or marked replay): never admits input. */
  readonly replay: boolean;
  /** `turn_completed`'s stop reason, when given. */
  readonly stopReason?: string;
}

export type TurnOrigin = 'controlled' | 'native';
export type SettleStatus = 'completed' | 'interrupted' | 'failed';

interface Turn {
  readonly id: string;
  readonly origin: TurnOrigin;
  promptId?: string;
  /** seq of the turn's persisted user record: the completion boundary before prompt-bearing activity. */
  userSeq?: number;
  admitted: boolean;
  settled: boolean;
}

/** What the session must do after one input. */
export type Decision =
  | { readonly action: 'ignore'; readonly why: string }
  | { readonly action: 'admit'; readonly turnId: string; readonly origin: TurnOrigin }
  | { readonly action: 'settle'; readonly turnId: string; readonly status: SettleStatus; readonly admitted: boolean };

const TERMINALS = new Set(['turn_completed']);
/** Grok's prompt_complete: authoritative only when correlated to a turn by promptId. */
const PROMPT_COMPLETE = 'prompt_complete';
const ACTIVITY = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);

/** Parses a `session/update` or `_x.ai/session/update` params object into a GrokRecord (null if not one). */
export function grokRecordOf(params: unknown, replay: boolean): { sessionId: string; record: GrokRecord } | null {
  if (!params || typeof params !== 'object') return null;
  const p = params as { sessionId?: unknown; update?: unknown; _meta?: unknown };
  const update = p.update && typeof p.update === 'object' ? (p.update as Record<string, unknown>) : null;
  if (typeof p.sessionId !== 'string' || !update || typeof update.sessionUpdate !== 'string') return null;
  // promptId/seq may ride on the update's or the notification's _meta.
  const meta = { ...asRecord(p._meta), ...asRecord(update._meta) };
  const promptId = typeof meta.promptId === 'string' && meta.promptId ? meta.promptId : undefined;
  const seq = typeof meta.seq === 'number' && Number.isInteger(meta.seq) ? meta.seq : undefined;
  const stopReason = typeof update.stopReason === 'string' ? update.stopReason : undefined;
  return {
    sessionId: p.sessionId,
    record: { kind: update.sessionUpdate, replay: replay || meta.replay === true, ...(promptId ? { promptId } : {}), ...(seq !== undefined ? { seq } : {}), ...(stopReason ? { stopReason } : {}) },
  };
}

function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
}

function statusOf(stopReason: string | undefined): SettleStatus {
  if (stopReason === 'cancelled') return 'interrupted';
  if (stopReason === 'refusal' || stopReason === 'error') return 'failed';
  return 'completed';
}

/**
 * The correlation state of one Grok session. At most one unsettled turn at a time (the runtime
 * owns steer/queue; a new input begins once the previous turn settled or was cancelled).
 */
export class GrokTurnCorrelator {
  private readonly turns = new Map<string, Turn>();
  /** promptId → turn id, kept after settlement so late records of that prompt stay consumed. */
  private readonly byPrompt = new Map<string, string>();
  private current: Turn | null = null;
  private nativeCount = 0;

  /** The unsettled turn, if any. */
  get activeTurnId(): string | null {
    return this.current?.id ?? null;
  }

  /** A controlled prompt was sent (`session/prompt`) as local turn `turnId`. */
  controlledSent(turnId: string): void {
    const turn: Turn = { id: turnId, origin: 'controlled', admitted: false, settled: false };
    this.turns.set(turnId, turn);
    this.current = turn;
  }

  /** One live or replayed record of this session. */
  record(r: GrokRecord): Decision {
    if (r.replay) return { action: 'ignore', why: 'replay' };
    if (TERMINALS.has(r.kind) || r.kind === PROMPT_COMPLETE) return this.terminal(r);
    if (!ACTIVITY.has(r.kind)) return { action: 'ignore', why: 'not turn activity' };
    if (r.promptId) {
      const bound = this.byPrompt.get(r.promptId);
      if (bound !== undefined) {
        const turn = this.turns.get(bound)!;
        // Late activity of a settled (e.g. cancelled) prompt never feeds the next turn.
        if (turn.settled) return { action: 'ignore', why: 'prompt already settled' };
        return this.admit(turn);
      }
      const cur = this.current;
      if (cur && !cur.settled && cur.promptId === undefined) {
        cur.promptId = r.promptId;
        this.byPrompt.set(r.promptId, cur.id);
        if (r.kind === 'user_message_chunk' && r.seq !== undefined) cur.userSeq = r.seq;
        return this.admit(cur);
      }
      // A new prompt id from a user record while nothing awaits: input typed in the native TUI.
      if (r.kind === 'user_message_chunk' && (!cur || cur.settled)) {
        const turn: Turn = { id: `native_${++this.nativeCount}_${r.promptId}`, origin: 'native', promptId: r.promptId, admitted: false, settled: false, ...(r.seq !== undefined ? { userSeq: r.seq } : {}) };
        this.turns.set(turn.id, turn);
        this.byPrompt.set(r.promptId, turn.id);
        this.current = turn;
        return this.admit(turn);
      }
      return { action: 'ignore', why: 'uncorrelated prompt' };
    }
    // No promptId: a persisted user record may still mark the boundary of the awaiting turn, but
    // only correlated activity admits it.
    const cur = this.current;
    if (cur && !cur.settled && r.kind === 'user_message_chunk' && r.seq !== undefined && cur.userSeq === undefined) cur.userSeq = r.seq;
    return { action: 'ignore', why: 'no promptId' };
  }

  private terminal(r: GrokRecord): Decision {
    if (r.promptId) {
      const bound = this.byPrompt.get(r.promptId);
      if (bound === undefined) return { action: 'ignore', why: r.kind === PROMPT_COMPLETE ? 'uncorrelated prompt_complete' : 'uncorrelated terminal' };
      const turn = this.turns.get(bound)!;
      if (turn.settled) return { action: 'ignore', why: 'duplicate terminal' };
      return this.settle(turn, statusOf(r.stopReason));
    }
    // A turn ending before any prompt-bearing activity: the session-scoped sequence after its user
    // record is its boundary (never time). prompt_complete without promptId stays non-authoritative.
    if (r.kind === PROMPT_COMPLETE) return { action: 'ignore', why: 'uncorrelated prompt_complete' };
    const cur = this.current;
    if (cur && !cur.settled && cur.promptId === undefined && cur.userSeq !== undefined && r.seq !== undefined && r.seq > cur.userSeq) {
      return this.settle(cur, statusOf(r.stopReason));
    }
    return { action: 'ignore', why: 'uncorrelated terminal' };
  }

  /** The `session/prompt` RPC of `turnId` answered: settles only that turn, and only if still unsettled. */
  promptResponse(turnId: string, stopReason: string): Decision {
    const turn = this.turns.get(turnId);
    if (!turn || turn.settled) return { action: 'ignore', why: 'late prompt response' };
    return this.settle(turn, statusOf(stopReason));
  }

  /** send_now: the current turn is settled interrupted now, before any next input is associated. */
  cancel(): Decision {
    const cur = this.current;
    if (!cur || cur.settled) return { action: 'ignore', why: 'no active turn' };
    return this.settle(cur, 'interrupted');
  }

  private admit(turn: Turn): Decision {
    if (turn.admitted) return { action: 'ignore', why: 'already admitted' };
    turn.admitted = true;
    return { action: 'admit', turnId: turn.id, origin: turn.origin };
  }

  private settle(turn: Turn, status: SettleStatus): Decision {
    turn.settled = true;
    if (this.current === turn) this.current = null;
    return { action: 'settle', turnId: turn.id, status, admitted: turn.admitted };
  }
}
