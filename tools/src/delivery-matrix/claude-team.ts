import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { actorHookKey } from '@cccc/hook-fence';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { startFakeModel, type FakeModel } from '../fake-model/index.js';
import { claudeEnv, readRealClis, seedClaudeHome } from '../real-clis/index.js';

// One real claude actor behind a CLI-started daemon (temp CCCC_HOME, the scripted fake model),
// owned by one disposable: what each delivery-matrix case runs against, in tests and the bench.

const run = promisify(execFile);
const CCCC_BIN = createRequire(import.meta.url).resolve('@cccc/cli/bin/cccc.js');

/** One line of the group's ledger file, as stored. */
export type LedgerLine = CCCSEventV1;

export interface ClaudeTeam extends AsyncDisposable {
  readonly client: InstanceType<typeof DaemonClient>;
  readonly home: string;
  readonly groupId: string;
  readonly model: FakeModel;
  /** Keys typed at peer1's terminal through term_attach, as a user in the Web terminal types them. */
  typeAtTerminal(keys: string): Promise<void>;
  /** When peer1's current session's SessionStart hook was taken (ms since the epoch), once it was. */
  sessionStartedAt(): number | undefined;
  /** Send from the user to peer1; returns the event id. */
  send(text: string): Promise<string>;
  screen(): Promise<string>;
  workingState(): Promise<string | undefined>;
  ledger(): LedgerLine[];
}

export interface ClaudeTeamOptions {
  readonly confirmWindowMs: number;
  /**
   * `bypass` (default): claude skips every permission prompt. `default`: it asks before a Bash
   * call, so the agent can be made to wait on a permission prompt.
   */
  readonly permissionMode?: 'bypass' | 'default';
  /** More of the daemon's environment (CCCC_SUBMIT_EVIDENCE=0 for the fixed waits). */
  readonly daemonEnv?: Readonly<Record<string, string>>;
  /**
   * Run claude through a wrapper not named `claude`, which the daemon launches without its hooks
   * (the hooks-http bench's no-hook baseline).
   */
  readonly unhooked?: boolean;
  /** More of claude's user settings (e.g. hooks of the bench's own). */
  readonly userSettings?: Readonly<Record<string, unknown>>;
}

export async function startClaudeTeam(options: ClaudeTeamOptions): Promise<ClaudeTeam> {
  const bypass = (options.permissionMode ?? 'bypass') === 'bypass';
  const clis = readRealClis();
  if (!clis.ok) throw new Error(`real CLIs unavailable: ${clis.reason}`);
  const home = mkdtempSync(join(tmpdir(), 'cccc-matrix-'));
  const agentHome = mkdtempSync(join(tmpdir(), 'cccc-matrix-claude-'));
  const { CCCC_ACTOR_ID: _inherited, ...inherited } = process.env;
  const env = { ...inherited, ...options.daemonEnv, CCCC_HOME: home, CCCC_DELIVERY_CONFIRM_MS: String(options.confirmWindowMs) };
  const model = await startFakeModel({ steps: [] });
  const cleanup = async () => {
    await run(process.execPath, [CCCC_BIN, 'daemon', 'stop'], { env, timeout: 30_000 }).catch(() => undefined);
    await model.close();
    for (const dir of [home, agentHome]) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    await run(process.execPath, [CCCC_BIN, 'daemon', 'start'], { env, timeout: 30_000 });
    const client = new DaemonClient({ home });
    const { group_id } = await client.call('group_create', { title: 'delivery matrix' });
    const scope = join(home, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id });
    seedClaudeHome(agentHome, scope, { acceptBypassPermissions: bypass });
    mkdirSync(join(agentHome, '.claude'), { recursive: true });
    const settings = { ...(bypass ? { skipDangerousModePermissionPrompt: true } : {}), ...options.userSettings };
    if (Object.keys(settings).length > 0) writeFileSync(join(agentHome, '.claude', 'settings.json'), JSON.stringify(settings));
    const PATH = [clis.binDir, process.env.PATH ?? ''].join(':');
    const wrapper = join(agentHome, 'claude-unhooked');
    if (options.unhooked) writeFileSync(wrapper, `#!/bin/sh\nexec claude "$@"\n`, { mode: 0o755 });
    await client.call('actor_add', {
      group_id,
      actor_id: 'peer1',
      runtime: 'claude',
      // The catalog's claude command is bypass mode; the daemon still injects its hooks into this one.
      ...(options.unhooked
        ? { command: [wrapper, ...(bypass ? ['--dangerously-skip-permissions'] : ['--permission-mode', 'default'])] }
        : bypass
          ? {}
          : { command: ['claude', '--permission-mode', 'default'] }),
      env: { ...claudeEnv(model.url, agentHome, PATH), ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}) },
    });
    await client.call('group_start', { group_id });
    const hookState = join(home, 'daemon', 'claude-hook-state', `${actorHookKey(group_id, 'peer1')}.json`);
    return {
      client,
      home,
      groupId: group_id,
      model,
      typeAtTerminal: async (keys) => {
        await using attachment = await client.openTermAttach({ group_id, actor_id: 'peer1', mode: 'control' });
        attachment.socket.write(keys);
        await new Promise((resolve) => setTimeout(resolve, 300)); // the daemon reads the keys before the socket closes
      },
      sessionStartedAt: () => {
        try {
          const state = JSON.parse(readFileSync(hookState, 'utf8')) as { event?: string; awaiting_session_start?: boolean; updated_at?: string };
          return state.event === 'SessionStart' && state.awaiting_session_start === false && state.updated_at ? Date.parse(state.updated_at) : undefined;
        } catch {
          return undefined;
        }
      },
      send: async (text) => (await client.call('send', { group_id, text, to: ['peer1'], message_mode: 'send' })).event.id,
      screen: async () => (await client.call('terminal_tail', { group_id, actor_id: 'peer1', strip_ansi: true, compact: true })).text,
      workingState: async () => (await client.call('actor_list', { group_id })).actors.find((a) => a.id === 'peer1')?.effective_working_state,
      // Complete lines only: the daemon may be mid-append, and a torn last line is not an event yet.
      ledger: () =>
        readFileSync(join(home, 'groups', group_id, 'ledger.jsonl'), 'utf8')
          .split('\n')
          .slice(0, -1)
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as LedgerLine),
      [Symbol.asyncDispose]: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
