import { z } from 'zod';
import { sanitizeId, sanitizeToolName } from './privacy.js';

export const RECORDER_STATES = ['working', 'waiting', 'idle', 'ended'] as const;
export type RecorderState = (typeof RECORDER_STATES)[number];
export const RECORDER_RETENTION_DAYS = 14;

export const recorderEntrySchema = z.looseObject({
  state: z.enum(RECORDER_STATES),
  seq: z.number().int().nonnegative(),
  session_name: z.string().nullable(),
  last_event_ts: z.string(),
  state_since: z.string(),
  subagents_active: z.number().int().nonnegative(),
  subagent_ids: z.array(z.string()),
});
export type RecorderEntry = z.infer<typeof recorderEntrySchema>;

export const recorderLatestSchema = z.looseObject({
  v: z.literal(1),
  sessions: z.record(z.string(), recorderEntrySchema),
});
export type RecorderLatest = z.infer<typeof recorderLatestSchema>;

/** One `activity-YYYY-MM-DD.jsonl` line. */
export interface RecorderLine {
  v: 1;
  ts: string;
  sandbox: string;
  agent: 'claude';
  session_id: string;
  session_name: string | null;
  seq: number;
  event: string;
  state: RecorderState;
  subagents_active: number;
  detail: string | null;
}

const payloadSchema = z.looseObject({
  hook_event_name: z.string().min(1).max(64),
  session_id: z.string().min(1).max(256),
  notification_type: z.string().optional(),
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
  tool_name: z.string().optional(),
  session_name: z.string().optional(),
  cwd: z.string().optional(),
});

export const emptyLatest = (): RecorderLatest => ({ v: 1, sessions: {} });

/** Read `activity-latest.json` content; anything unreadable starts over rather than crash the hook. */
export function decodeLatest(text: string | null): RecorderLatest {
  if (text === null) return emptyLatest();
  try {
    const parsed = recorderLatestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : emptyLatest();
  } catch {
    return emptyLatest();
  }
}

function nextState(event: string, notification: string | undefined, prev: RecorderState | undefined): RecorderState | undefined {
  switch (event) {
    case 'SessionStart':
      return 'idle';
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return 'working';
    case 'PermissionRequest':
      return 'waiting';
    case 'Notification':
      if (notification === 'permission_prompt' || notification === 'elicitation_dialog') return 'waiting';
      if (notification === 'idle_prompt') return 'idle';
      return prev;
    case 'Stop':
    case 'StopFailure':
      return 'idle';
    case 'SessionEnd':
      return 'ended';
    default:
      return prev;
  }
}

function sessionName(p: z.infer<typeof payloadSchema>): string | null {
  if (p.session_name) return p.session_name.slice(0, 128);
  if (p.cwd) return p.cwd.split('/').filter(Boolean).pop()?.slice(0, 128) ?? null;
  return null;
}

export type RecordResult = { error: string } | { latest: RecorderLatest; line: RecorderLine | null };

/**
 * Apply one Claude Code hook payload to the latest-state file. A line is produced only when the
 * session's state or subagent count changes; `seq` counts those lines per session. Subagents are
 * counted by id, so a stop for an id that never started changes nothing.
 */
export function recordHookEvent(latest: RecorderLatest, input: unknown, now: Date, sandbox: string): RecordResult {
  const parsed = payloadSchema.safeParse(input);
  if (!parsed.success) return { error: parsed.error.issues[0]!.path.join('.') || '(root)' };
  const p = parsed.data;
  const ts = now.toISOString();
  const prev = latest.sessions[p.session_id];
  const ids = new Set(prev?.subagent_ids ?? []);
  const agent = sanitizeId(p.agent_id);
  if (p.hook_event_name === 'SubagentStart' && agent) ids.add(agent);
  if (p.hook_event_name === 'SubagentStop' && agent) ids.delete(agent);
  if (p.hook_event_name === 'SessionEnd') ids.clear();
  const state = nextState(p.hook_event_name, p.notification_type, prev?.state) ?? 'idle';
  const changed = !prev || prev.state !== state || prev.subagent_ids.length !== ids.size;
  const seq = (prev?.seq ?? 0) + (changed ? 1 : 0);
  const entry: RecorderEntry = {
    state,
    seq,
    session_name: prev?.session_name ?? sessionName(p),
    last_event_ts: ts,
    state_since: prev && prev.state === state ? prev.state_since : ts,
    subagents_active: ids.size,
    subagent_ids: [...ids],
  };
  const next: RecorderLatest = { ...latest, sessions: { ...latest.sessions, [p.session_id]: entry } };
  if (!changed) return { latest: next, line: null };
  const detail =
    p.hook_event_name === 'Notification'
      ? sanitizeToolName(p.notification_type)
      : p.hook_event_name.startsWith('Subagent')
        ? sanitizeToolName(p.agent_type)
        : sanitizeToolName(p.tool_name);
  return {
    latest: next,
    line: {
      v: 1,
      ts,
      sandbox,
      agent: 'claude',
      session_id: p.session_id,
      session_name: entry.session_name,
      seq,
      event: p.hook_event_name,
      state,
      subagents_active: ids.size,
      detail,
    },
  };
}

/** Drop sessions whose last event is older than the retention window. */
export function pruneLatest(latest: RecorderLatest, now: Date, days = RECORDER_RETENTION_DAYS): RecorderLatest {
  const cutoff = now.getTime() - days * 86_400_000;
  const sessions = Object.fromEntries(Object.entries(latest.sessions).filter(([, e]) => Date.parse(e.last_event_ts) >= cutoff));
  return { ...latest, sessions };
}

/** The UTC day file a line at `now` goes to. */
export function dayFileName(now: Date): string {
  return `activity-${now.toISOString().slice(0, 10)}.jsonl`;
}

/** Day files older than the retention window, given a directory listing. */
export function expiredDayFiles(names: readonly string[], now: Date, days = RECORDER_RETENTION_DAYS): string[] {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
  return names.filter((n) => {
    const m = /^activity-(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(n);
    return m !== null && m[1]! < cutoff;
  });
}
