import type { Command } from 'commander';

// Everything heavier than commander is imported inside the actions: Claude Code waits on
// `cccc hook` at every tool call, so the hook path loads only what it runs.

/** The absolute entry a hook should run: the committed bin shim beside dist/, else argv[1]. */
async function cliEntry(): Promise<string> {
  const [{ existsSync }, { fileURLToPath }] = await Promise.all([import('node:fs'), import('node:url')]);
  const bin = fileURLToPath(new URL('../bin/cccc.js', import.meta.url));
  return existsSync(bin) ? bin : process.argv[1]!;
}

const IDENTITY_ENV = ['CCCC_HOME', 'CCCC_GROUP_ID', 'CCCC_ACTOR_ID', 'CCCC_HOOK_LAUNCH_TOKEN'] as const;
/** Connect + answer budget: the agent waits on this hook, the daemon is local. */
export const HOOK_DAEMON_TIMEOUT_MS = 1_500;
const HOOK_LOG_MAX = 1024 * 1024;

/** Append to `<CCCC_HOME>/daemon/hook.log` (rotated at 1 MiB); never throws, never prints. */
async function logStateHookError(home: string | undefined, message: string): Promise<void> {
  if (!home) return;
  try {
    const [{ open, rename, stat, mkdir }, { join }, { NOFOLLOW_APPEND }] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('./activity-recorder.js'),
    ]);
    const dir = join(home, 'daemon');
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'hook.log');
    const size = await stat(path).then((s) => s.size, () => 0);
    if (size > HOOK_LOG_MAX) await rename(path, `${path}.1`);
    const handle = await open(path, NOFOLLOW_APPEND, 0o600);
    try {
      await handle.writeFile(`${new Date().toISOString()} ${message}\n`);
    } finally {
      await handle.close();
    }
  } catch {
    /* nowhere left to report it */
  }
}

/**
 * `cccc hook claude-state|codex-state`: copy the identity and label fields of one payload (never
 * prompts, commands, tool inputs/outputs or notification text) and hand them to the daemon, the
 * single writer of hook state. Never blocks the agent for long, never prints, always exits 0.
 */
export async function runStateHook(runtime: 'claude' | 'codex', env: NodeJS.ProcessEnv, stdin: NodeJS.ReadStream): Promise<void> {
  const home = env.CCCC_HOME;
  try {
    const missing = IDENTITY_ENV.filter((k) => !env[k]);
    if (missing.length > 0) return await logStateHookError(home, `${runtime}-state: missing ${missing.join(', ')}`);
    const { readStdinCapped } = await import('./activity-stdin.js');
    const text = await readStdinCapped(stdin);
    if (text === null) return await logStateHookError(home, `${runtime}-state: payload over 1 MiB or unreadable`);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return await logStateHookError(home, `${runtime}-state: payload is not JSON`);
    }
    const [{ opCatalog }, { DaemonClient }] = await Promise.all([import('@cccc/ipc-protocol'), import('@cccc/ipc-protocol/node')]);
    const keys = Object.keys(opCatalog.runtime_hook_event.args.shape.payload.shape);
    const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const payload = Object.fromEntries(keys.filter((k) => typeof source[k] === 'string').map((k) => [k, source[k]]));
    const args = {
      group_id: env.CCCC_GROUP_ID!,
      actor_id: env.CCCC_ACTOR_ID!,
      runtime,
      launch_token: env.CCCC_HOOK_LAUNCH_TOKEN!,
      payload,
    };
    const parsed = opCatalog.runtime_hook_event.args.safeParse(args);
    if (!parsed.success) return await logStateHookError(home, `${runtime}-state: bad payload: ${parsed.error.issues[0]?.path.join('.')}`);
    const client = new DaemonClient({ home, timeoutMs: HOOK_DAEMON_TIMEOUT_MS, connectAttempts: 1 });
    const result = await client.call('runtime_hook_event', parsed.data);
    if (!result.accepted) await logStateHookError(home, `${runtime}-state: ${String(payload.hook_event_name)} rejected: ${result.reason ?? 'fenced'}`);
  } catch (error) {
    await logStateHookError(home, `${runtime}-state: ${(error as Error)?.message ?? String(error)}`);
  }
}

export function registerHookCommands(program: Command, setExit: (code: number) => void): void {
  const hook = program.command('hook', { hidden: true }).description('provider hook entry points (always exit 0, never print)');
  hook
    .command('claude-activity')
    .allowUnknownOption()
    .allowExcessArguments()
    .description('record this Claude Code session\'s working state under CCCC_ACTIVITY_DIR (standalone, no daemon)')
    .action(async () => {
      const { runClaudeActivityHook } = await import('./activity-recorder.js');
      await runClaudeActivityHook(process.env, process.stdin);
      setExit(0);
    });

  for (const runtime of ['claude', 'codex'] as const) {
    hook
      .command(`${runtime}-state`)
      .allowUnknownOption()
      .allowExcessArguments()
      .description(`hand one ${runtime} hook payload (stdin) to the daemon through runtime_hook_event`)
      .action(async () => {
        await runStateHook(runtime, process.env, process.stdin);
        setExit(0);
      });
  }

  const activity = program
    .command('activity')
    .description('which Claude Code sessions are working, waiting or idle, and for how long')
    .option('--all', 'include ended sessions')
    .option('--json', 'print JSON')
    .action(async (opts: { all?: boolean; json?: boolean }) => {
      const { readActivityRows, formatActivityRows } = await import('./activity.js');
      const rows = await readActivityRows(process.env, new Date(), Boolean(opts.all));
      process.stdout.write(opts.json ? JSON.stringify(rows, null, 2) + '\n' : formatActivityRows(rows).join('\n') + '\n');
    });
  activity
    .command('setup')
    .description('add the recorder hooks to ${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json (merge, idempotent)')
    .option('--print', 'only print the hooks to add')
    .action(async (opts: { print?: boolean }) => {
      const setup = await import('./activity-setup.js');
      const { claudeConfigDir } = await import('./activity-recorder.js');
      const command = setup.activityHookCommand(process.execPath, await cliEntry());
      if (opts.print) {
        process.stdout.write(JSON.stringify({ hooks: setup.activityHooks(command) }, null, 2) + '\n');
        return;
      }
      const dir = claudeConfigDir(process.env);
      try {
        const outcome = await setup.installActivityHooks(dir, command);
        process.stdout.write(
          outcome === 'installed' ? `added activity hooks to ${dir}/settings.json\n` : `activity hooks already in ${dir}/settings.json\n`,
        );
      } catch (error) {
        process.stderr.write(`error: ${(error as Error).message}\n`);
        setExit(1);
      }
    });
}
