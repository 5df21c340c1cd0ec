import type { CCCSEventV1 } from '@cccc/ipc-protocol';

// Human-readable rendering. Machine output is always `--json`; nothing here is a contract.

/** A plain left-aligned table with an upper-case header; empty cells print as "-". */
export function formatTable(headers: readonly string[], rows: readonly (readonly unknown[])[]): string[] {
  const cells = [headers.map((h) => h.toUpperCase()), ...rows.map((row) => row.map(cellText))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function cellText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.join(',');
  return String(value);
}

/** Event ids are 32 hex; eight are enough to recognise one on screen and to grep for it. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** `2025-01-02T03:04:05.678901Z` → `2025-01-02 03:04:05`, UTC like the ledger. */
export function formatTs(ts: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(ts);
  return match ? `${match[1]} ${match[2]}` : ts;
}

/** `[ts] by → to (mode) [id8]: text`, one line: newlines in the text are shown as "⏎". */
export function formatMessage(event: CCCSEventV1): string {
  const data = event.data;
  const to = Array.isArray(data.to) && data.to.length > 0 ? data.to.join(',') : '-';
  const mode = typeof data.message_mode === 'string' ? data.message_mode : 'send';
  const reply = typeof data.reply_to === 'string' && data.reply_to ? ` ↩${shortId(data.reply_to)}` : '';
  const text = typeof data.text === 'string' ? oneLine(data.text) : '';
  return `[${formatTs(event.ts)}] ${event.by} → ${to} (${mode}) [${shortId(event.id)}]${reply}: ${text}`;
}

/** Any ledger event: chat messages as messages, notifications with their text, others by kind. */
export function formatEvent(event: CCCSEventV1): string {
  if (event.kind === 'chat.message') return formatMessage(event);
  const head = `[${formatTs(event.ts)}] ${event.kind} by ${event.by} [${shortId(event.id)}]`;
  if (event.kind === 'system.notify') {
    const d = event.data;
    const target = typeof d.target_actor_id === 'string' && d.target_actor_id ? ` → ${d.target_actor_id}` : '';
    const title = typeof d.title === 'string' && d.title ? `${oneLine(d.title)}: ` : '';
    const message = typeof d.message === 'string' ? oneLine(d.message) : '';
    return `${head}${target} (${String(d.kind ?? 'info')}): ${title}${message}`;
  }
  const brief = briefOf(event.data);
  return brief ? `${head} ${brief}` : head;
}

/**
 * A few words for a non-chat event: the actor, title, path or state it is about, in that order
 * of preference; otherwise its data as JSON, cut short (full data is one `--json` away).
 */
function briefOf(data: Record<string, unknown>): string {
  const actor = data.actor as { id?: unknown } | undefined;
  const named = [typeof actor?.id === 'string' ? actor.id : data.actor_id, data.title, data.url, data.state].filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  if (named.length > 0) return named.join(' ');
  const json = JSON.stringify(data);
  if (json === '{}') return '';
  return json.length > 120 ? json.slice(0, 117) + '...' : json;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ⏎ ');
}

/** The working-state fields of an actor_list entry that `actorStateLabel` reads. */
export interface ActorStateFields {
  readonly running: boolean;
  readonly effective_working_state: string;
  readonly effective_working_reason: string;
  readonly state_source: string;
  readonly idle_seconds?: number | null;
}

/**
 * One short phrase per actor state for `cccc actor list`: what a person reads at a glance, with
 * the evidence named when the state is a guess. A hook is the agent itself saying what it does,
 * so hooked states read plainly ("idle", "waiting for permission"); the fallbacks say they are
 * read off the screen or off output silence. A hooked agent waits only on a permission request
 * or a dialog asking its user (permission_prompt, elicitation_dialog); permission is the one
 * people meet, so that is what it says (`--json` carries the exact reason).
 */
export function actorStateLabel(a: ActorStateFields): string {
  const state = a.effective_working_state;
  if (!a.running || state === 'stopped') return a.effective_working_reason === 'cli_exited' ? 'stopped · exited' : 'stopped';
  if (a.state_source === 'hook') {
    if (state === 'waiting') return 'waiting for permission';
    if (state === 'working') return 'working · hook';
    return state;
  }
  // A managed session's app-server or ACP session is as authoritative as a hook; it waits only on
  // an approval.
  if (a.state_source === 'app_server' || a.state_source === 'managed_session') {
    if (state === 'waiting') return 'waiting for permission';
    if (state === 'working') return `working · ${a.state_source === 'app_server' ? 'app-server' : 'ACP session'}`;
    return state;
  }
  const hooks = a.effective_working_reason.startsWith('hook_pending/') ? ' (hooks starting)' : '';
  if (a.state_source === 'terminal') return `${state} · screen${hooks}`;
  if (a.state_source === 'idle') {
    const quiet = quietFor(a.effective_working_reason);
    if (state === 'working') return `working · output${hooks}`;
    return `${state === 'stuck' ? 'stuck' : 'quiet'}${quiet ? ` ${quiet}` : ''}${hooks}`;
  }
  return state;
}

/** `idle_42s` (or `hook_pending/idle_42s`) → "42s"; minutes past 120 s. */
function quietFor(reason: string): string | undefined {
  const m = /idle_(\d+)s$/.exec(reason);
  if (!m) return undefined;
  const s = Number(m[1]);
  return s >= 120 ? `${Math.floor(s / 60)}m` : `${s}s`;
}
