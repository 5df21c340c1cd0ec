import { IpcError, type OpRouter } from '@cccc/ipc-protocol';
import { terminalClear, terminalHistory, terminalReplay, terminalSince, terminalSnapshot, terminalTail, validateTermSize } from '@cccc/pty-runtime';
import { openTermAttach } from '../terminal/attach.js';
import { resolveTerminal } from '../terminal/terminal-access.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import type { AttachDeps } from '../terminal/attach.js';

const defined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };

export type TerminalOpsDeps = AttachDeps & {
  /** A managed actor's TUI re-opens for a writable attach (never for a viewer, never a stopped provider). */
  readonly actorRuntime?: { reopenTerminal(groupId: string, actorId: string): Promise<boolean> };
};

/**
 * §8.11 terminal diagnostics, term_resize, term_attachment_status and the term_attach upgrade.
 * Every read goes through `resolveTerminal` (transcript visibility, live PTY session).
 */
export function registerTerminalOps(router: OpRouter, deps: TerminalOpsDeps): void {
  const target = (args: { group_id: string; actor_id: string; by?: string | undefined }) => resolveTerminal(deps, args.group_id, args.actor_id, args.by);
  const ids = (args: { group_id: string; actor_id: string }) => ({ group_id: args.group_id, actor_id: args.actor_id });

  router.register('terminal_tail', async (args) => {
    const { session } = target(args);
    const tail = await terminalTail(session, defined({ maxChars: args.max_chars, stripAnsi: args.strip_ansi, compact: args.compact }));
    return { ...ids(args), ...tail };
  });

  router.register('terminal_snapshot', async (args) => terminalSnapshot(target(args).session, defined({ limitBytes: args.limit_bytes })));

  router.register('terminal_replay', (args) =>
    terminalReplay(target(args).session, defined({ after: args.after, endCursor: args.end_cursor, limitBytes: args.limit_bytes })),
  );

  router.register('terminal_history', async (args) => {
    const { session } = target(args);
    const options = defined({
      before: args.before,
      renderBefore: args.render_before,
      limitBytes: args.limit_bytes,
      stripAnsi: args.strip_ansi,
      compact: args.compact,
    });
    return { ...ids(args), ...(await terminalHistory(session, options)) };
  });

  router.register('terminal_since', (args) => terminalSince(target(args).session, defined({ after: args.after, limitBytes: args.limit_bytes })));

  router.register('terminal_clear', (args) => ({ ...ids(args), ...terminalClear(target(args).session) }));

  router.register('term_resize', (args) => {
    const size = validateTermSize(args.cols, args.rows);
    if (!size.ok) throw daemonError(DaemonErrorCodes.invalidSize, size.message, { cols: args.cols ?? null, rows: args.rows ?? null });
    const { terminal, session } = target(args);
    // Checked and applied in one synchronous step: no takeover can land in between.
    if (args.attachment_id !== undefined && !terminal.attachments.isWriter(args.attachment_id)) {
      throw daemonError(DaemonErrorCodes.terminalNotWriter, `attachment ${args.attachment_id} is not the current writer of ${args.actor_id}`, {
        attachment_id: args.attachment_id,
      });
    }
    if (size.cols !== session.cols || size.rows !== session.rows) session.resize(size.cols, size.rows);
    return { ...ids(args), cols: size.cols, rows: size.rows };
  });

  router.register('term_attachment_status', (args) => {
    const { terminal } = target(args);
    return { terminal_writable: args.attachment_id > 0 && terminal.attachments.isWriter(args.attachment_id) };
  });

  router.register('term_attach', async (args) => {
    if ((args.mode ?? 'control') === 'control' && deps.actorRuntime) await deps.actorRuntime.reopenTerminal(args.group_id, args.actor_id);
    return openTermAttach(deps, args);
  });
}
