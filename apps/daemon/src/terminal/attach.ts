import { IpcError, StreamUpgrade, type OpArgs, type OpResult } from '@cccc/ipc-protocol';
import { renderAttachSnapshot, validateSnapshotHint } from '@cccc/pty-runtime';
import type { HookDeps } from '../hooks/hook-deps.js';
import { isInterruptInput, recordTerminalInterrupt } from '../hooks/terminal-interrupt.js';
import { errorFields, type Logger } from '../log.js';
import { AttachSession } from './attach-session.js';
import { resolveTerminal, type TerminalDeps } from './terminal-access.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';

type Handshake = OpResult<'term_attach'>;

export interface AttachDeps extends TerminalDeps, HookDeps {
  readonly logger: Logger;
}

/**
 * §4.4 / §8.11 term_attach. Writer registration, the takeover resize and the capture of the
 * backlog cursors happen synchronously, as one step, so the handshake cursors are those of the
 * backlog this attachment streams, and concurrent takeovers cannot interleave.
 */
export async function openTermAttach(deps: AttachDeps, args: OpArgs<'term_attach'>): Promise<StreamUpgrade<Handshake>> {
  const target = resolveTerminal(deps, args.group_id, args.actor_id, args.by, { notRunningCode: 'not_pty_actor' });
  const { terminal, session } = target;
  const mode = args.mode ?? 'control';
  const takeover = mode === 'control' && args.takeover === true;
  let hint: { cols: number; rows: number } | undefined;
  if (args.cols !== undefined || args.rows !== undefined) {
    const check = validateSnapshotHint(args.cols, args.rows);
    if (!check.ok) throw daemonError(DaemonErrorCodes.invalidSize, check.message, { cols: args.cols ?? null, rows: args.rows ?? null });
    hint = check;
  }

  const grant = terminal.attachments.attach({ mode, takeover });
  // Only a control attach that takes the writer role over may resize the shared PTY.
  if (hint && takeover && grant.writable && (hint.cols !== session.cols || hint.rows !== session.rows)) session.resize(hint.cols, hint.rows);

  const ring = session.ring;
  let startCursor: number;
  let replayEnd: number;
  let prefix: string | undefined;
  let initialOutput: Handshake['initial_output'];
  try {
    if (args.bootstrap === 'snapshot_v1') {
      // The cursor and the bytes rendered are captured before the first await inside.
      const snap = await renderAttachSnapshot(session);
      startCursor = replayEnd = snap.cursor;
      prefix = snap.data;
      initialOutput = { kind: 'snapshot', bytes: snap.bytes, cursor: snap.cursor, cols: snap.cols, rows: snap.rows };
    } else {
      replayEnd = ring.completeEnd();
      startCursor = Math.min(Math.max(args.since ?? ring.startCursor, ring.startCursor), replayEnd);
      initialOutput = { kind: 'replay', bytes: replayEnd - startCursor, cursor: startCursor };
    }
  } catch (error) {
    terminal.attachments.detach(grant.attachmentId);
    throw error;
  }

  const attachment = new AttachSession({
    terminal,
    session,
    grant,
    startCursor,
    prefix,
    onInputWritten: (chunks) => {
      if (!chunks.some(isInterruptInput)) return;
      recordTerminalInterrupt(deps, target.groupId, target.actorId, session).catch((error: unknown) => {
        deps.logger.log('warn', 'could not record a terminal interrupt', { group_id: target.groupId, actor_id: target.actorId, ...errorFields(error) });
      });
    },
  });
  const handshake: Handshake = {
    group_id: target.groupId,
    actor_id: target.actorId,
    attachment_id: grant.attachmentId,
    terminal_mode: grant.mode,
    terminal_writable: grant.writable,
    writer_replaced: grant.writerReplaced,
    replay_cursor: startCursor,
    replay_end_cursor: replayEnd,
    initial_output: initialOutput,
  };
  return new StreamUpgrade(handshake, (connection) => attachment.start(connection));
}
