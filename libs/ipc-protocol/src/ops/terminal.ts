import { z } from 'zod';
import { defineOp } from './define.js';
import { ActorIdArg, ByArg, GroupIdArg } from './shared.js';

// §8.11 terminal diagnostics and the out-of-band attach controls. term_attach itself (the raw
// stream upgrade) lives in streams.ts.

const Cursor = z.number().int().nonnegative();
const LimitBytes = z.number().int().positive();
const Target = { group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg };

/** Notes every rendered-text result carries (retention warning, how to follow live output). */
const RenderedNotes = { warning: z.string(), hint: z.string() };

/** One raw page of the PTY ring (terminal_replay / terminal_since). */
export const TerminalHistoryPage = z.object({
  data: z.string(),
  start_cursor: Cursor,
  end_cursor: Cursor,
  has_more: z.boolean(),
  cursor_expired: z.boolean(),
});

export const terminal_tail = defineOp({
  summary: "Render an actor's whole retained PTY backlog, then keep the last max_chars characters.",
  args: () => z.object({
    ...Target,
    max_chars: z.number().int().nonnegative().optional(),
    strip_ansi: z.boolean().optional(),
    compact: z.boolean().optional(),
  }),
  result: () => z.object({ group_id: z.string(), actor_id: z.string(), ...RenderedNotes, text: z.string(), end_cursor: Cursor }),
});

export const terminal_snapshot = defineOp({
  summary: 'A bounded rendered screen snapshot and the raw cursor range it was rendered from.',
  args: () => z.object({ ...Target, limit_bytes: LimitBytes.optional() }),
  result: () => z.object({ data: z.string(), start_cursor: Cursor, end_cursor: Cursor }),
});

/** Pages end at the replay_end_cursor fixed by the first request (pass it back as end_cursor). */
export const terminal_replay = defineOp({
  summary: "One bounded page of raw ANSI output from the live session's ring.",
  args: () => z.object({ ...Target, after: Cursor.optional(), end_cursor: Cursor.optional(), limit_bytes: LimitBytes.optional() }),
  result: () => z.object({ replay_end_cursor: Cursor, history: TerminalHistoryPage }),
});

export const terminal_history = defineOp({
  summary: 'Backward paging over rendered terminal text (pin render_before to re-render one range).',
  args: () => z.object({
    ...Target,
    before: Cursor.optional(),
    render_before: Cursor.optional(),
    limit_bytes: LimitBytes.optional(),
    strip_ansi: z.boolean().optional(),
    compact: z.boolean().optional(),
  }),
  result: () => z.object({
    group_id: z.string(),
    actor_id: z.string(),
    ...RenderedNotes,
    text: z.string(),
    start_cursor: Cursor,
    end_cursor: Cursor,
    has_more: z.boolean(),
    cursor_expired: z.boolean(),
  }),
});

export const terminal_since = defineOp({
  summary: 'The next raw output page after a byte cursor (never ends inside a UTF-8 code point).',
  args: () => z.object({ ...Target, after: Cursor, limit_bytes: LimitBytes.optional() }),
  result: () => z.object({ history: TerminalHistoryPage }),
});

export const terminal_clear = defineOp({
  summary: "Forget an actor's retained terminal output (cursors keep counting).",
  args: () => z.object(Target),
  result: () => z.object({ group_id: z.string(), actor_id: z.string(), cleared: z.literal(true) }),
});

/**
 * Sent over a separate connection from the attach stream. cols/rows are checked by the handler
 * so that missing or out-of-range values answer `invalid_size` (not invalid_request).
 */
export const term_resize = defineOp({
  summary: "Resize an actor's PTY (the attachment must be the current writer).",
  args: () => z.object({
    group_id: GroupIdArg,
    actor_id: ActorIdArg,
    by: ByArg,
    cols: z.number().optional(),
    rows: z.number().optional(),
    attachment_id: z.number().int().optional(),
  }),
  result: () => z.object({ group_id: z.string(), actor_id: z.string(), cols: z.number().int(), rows: z.number().int() }),
});

/** Extension, advertised by ping.capabilities.term_attachment_status. */
export const term_attachment_status = defineOp({
  summary: 'Whether an attachment is still the terminal writer.',
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg, attachment_id: z.number().int() }),
  result: () => z.object({ terminal_writable: z.boolean() }),
});
