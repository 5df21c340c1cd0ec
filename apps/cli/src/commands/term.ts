import type { Command } from 'commander';
import type { CliClient } from '../cli-client.js';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';

/** Ctrl-] (the telnet escape): detach and give the terminal back. */
const DETACH_KEY = 0x1d;
/** Home + clear before the snapshot, so it paints on an empty screen. */
const CLEAR_SCREEN = '\x1b[H\x1b[2J';
/**
 * Modes an agent's TUI may have switched on in the local terminal: attributes, cursor
 * visibility, alternate screen, bracketed paste, mouse reporting, application cursor keys.
 */
const RESTORE_MODES = '\x1b[0m\x1b[?25h\x1b[?1049l\x1b[?2004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1l';

interface TermOptions extends GroupOptions {
  viewer?: boolean;
  takeover?: boolean;
}

/**
 * `cccc term <actor>`: the local terminal becomes the actor's. Raw mode, a snapshot of the
 * current screen first, then live bytes both ways; window resizes follow through term_resize on
 * a separate connection (the attach stream is not NDJSON). Ctrl-] detaches and restores the tty.
 */
export function registerTermCommand(program: Command, setExit: (code: number) => void): void {
  withGroupOptions(program.command('term <actor_id>').description("attach this terminal to an actor's live terminal (Ctrl-] detaches)"))
    .option('--viewer', 'watch only: input is not sent and the PTY is never resized')
    .option('--takeover', 'take the writer role from another attached client')
    .action(
      guarded(setExit, async (actorId: string, opts: TermOptions) => {
        const ctx = groupContext(opts);
        const { stdin, stdout } = process;
        if (!stdin.isTTY || !stdout.isTTY) throw cliError(CliErrorCodes.notATty, '`cccc term` needs an interactive terminal (stdin and stdout must be a TTY)');
        const mode = opts.viewer ? 'viewer' : 'control';
        const size = { cols: Math.min(4096, Math.max(10, stdout.columns || 120)), rows: Math.min(4096, Math.max(2, stdout.rows || 40)) };
        const attachment = await ctx.client.openTermAttach({
          group_id: ctx.groupId,
          actor_id: actorId,
          by: ctx.by,
          mode,
          takeover: mode === 'control' && Boolean(opts.takeover),
          bootstrap: 'snapshot_v1',
          ...(mode === 'control' && opts.takeover ? size : {}),
        });
        const hs = attachment.handshake;
        const banner = `[cccc] attached to ${actorId} (${hs.terminal_writable ? 'writer' : 'read-only'}${hs.writer_replaced ? ', took over' : ''}); Ctrl-] detaches`;
        const code = await runSession(ctx.client, { groupId: ctx.groupId, actorId, by: ctx.by }, attachment, hs.terminal_writable ? hs.attachment_id : undefined, banner);
        setExit(code);
      }),
    );
}

const SIGNALS = ['SIGTERM', 'SIGHUP'] as const;

async function runSession(
  client: CliClient,
  target: { groupId: string; actorId: string; by: string },
  attachment: Awaited<ReturnType<CliClient['openTermAttach']>>,
  writerId: number | undefined,
  banner: string,
): Promise<number> {
  const { stdin, stdout } = process;
  const { socket } = attachment;
  const wasRaw = stdin.isRaw;
  stdin.setRawMode(true);
  stdin.resume();

  const resize = () => {
    if (writerId === undefined) return;
    const cols = stdout.columns;
    const rows = stdout.rows;
    if (!cols || !rows) return;
    void client
      .call('term_resize', { group_id: target.groupId, actor_id: target.actorId, by: target.by, cols, rows, attachment_id: writerId })
      .catch(() => undefined); // lost the writer role or an odd size: the PTY keeps its size
  };
  resize();

  return new Promise<number>((resolve) => {
    let done = false;
    const finish = (code: number, message: string) => {
      if (done) return;
      done = true;
      stdin.off('data', onInput);
      stdout.off('resize', resize);
      for (const signal of SIGNALS) process.off(signal, onSignal);
      socket.off('data', onOutput);
      socket.destroy();
      stdin.setRawMode(wasRaw);
      stdin.pause();
      stdout.write(`${RESTORE_MODES}\r\n[cccc] ${message}\r\n`);
      resolve(code);
    };
    const onInput = (chunk: Buffer) => {
      const at = chunk.indexOf(DETACH_KEY);
      if (at >= 0) {
        if (at > 0 && writerId !== undefined) socket.write(chunk.subarray(0, at));
        return finish(0, 'detached');
      }
      if (writerId !== undefined) socket.write(chunk);
    };
    const onOutput = (chunk: Buffer) => stdout.write(chunk);
    // Killed or hung up: still give the terminal back before exiting.
    const onSignal = () => finish(0, 'detached (signal)');
    for (const signal of SIGNALS) process.on(signal, onSignal);
    stdin.on('data', onInput);
    stdout.on('resize', resize);
    socket.on('data', onOutput);
    socket.on('error', () => undefined);
    socket.on('close', () => finish(1, 'the terminal stream ended (the actor stopped, or this client fell behind)'));
    // Only once every handler is in place: a signal sent on seeing the banner finds them.
    stdout.write(`\r\n${banner}\r\n${CLEAR_SCREEN}`);
    if (attachment.initialBytes.byteLength > 0) stdout.write(attachment.initialBytes);
    socket.resume();
  });
}
