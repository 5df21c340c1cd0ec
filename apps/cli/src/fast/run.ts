import { HomeLayout, readActiveGroupId } from '@cccc/groups/home';
import { callOp, monotonicMs, resolveCcccHome } from '@cccc/ipc-protocol/call';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { formatMessage } from '../format.js';
import { printJson, reportError } from '../output.js';
import { writeStdout } from '../stdio.js';
import type { FastCommand, MessageCommand } from './argv.js';

// IO shell of the fast path: what commands/ping.ts and commands/messages.ts do, with the same
// defaults (context.ts) and the same output (output.ts, format.ts), byte for byte
// (cli-fast.e2e.test.ts runs both on the same inputs against one daemon).

/** CLI spelling → wire `message_mode` (commands/messages.ts). */
const WIRE_MODES: Record<string, string> = { send: 'send', 'request-reply': 'request_reply', mail: 'mail' };

async function runPing(json: boolean): Promise<void> {
  const started = monotonicMs();
  const result = await callOp(resolveCcccHome(), 'ping', {});
  const ms = monotonicMs() - started;
  if (json) printJson(result);
  else {
    writeStdout(
      `pong from ${String(result.implementation)} ${String(result.version)} (pid ${String(result.pid)}, ipc v${String(result.ipc_v)}) in ${ms.toFixed(1)} ms\n`,
    );
  }
}

async function runMessage(cmd: MessageCommand): Promise<void> {
  const home = resolveCcccHome();
  const by = cmd.by?.trim() || process.env.CCCC_ACTOR_ID?.trim() || 'user';
  const groupId = cmd.group?.trim() || readActiveGroupId(new HomeLayout(home));
  if (!groupId) throw cliError(CliErrorCodes.noActiveGroup, 'no group given: pass --group <group_id> or set one with `cccc use <group_id>`');
  const args: Record<string, unknown> =
    cmd.command === 'send'
      ? { group_id: groupId, text: cmd.text, by, message_mode: WIRE_MODES[cmd.mode!] }
      : { group_id: groupId, reply_to: cmd.eventId, text: cmd.text, by };
  if (cmd.to) args.to = cmd.to;
  if (cmd.command === 'reply' && cmd.mode !== undefined) args.message_mode = cmd.mode;
  if (cmd.insight !== undefined) args.insight = cmd.insight;
  const result = (await callOp(home, cmd.command, args as never)) as Record<string, unknown>;
  if (cmd.json) return printJson(result);
  writeStdout(formatMessage(result.event as Parameters<typeof formatMessage>[0]) + '\n');
}

/** Run one parsed command; resolves with the exit code the full CLI would set. */
export async function runFast(cmd: FastCommand): Promise<number> {
  try {
    if (cmd.command === 'ping') await runPing(cmd.json);
    else await runMessage(cmd);
    return 0;
  } catch (error) {
    return reportError(error, { json: cmd.json });
  }
}
