import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeModel } from '../fake-model/index.js';
import { actorProbe, type ActorProbe, type DaemonGroup, tempDir } from './daemon-actor.js';
import { claudeEnv, readHookPayloads, recordingHookSettings, type RealClis, seedClaudeHome } from './index.js';
import type { RealCliTeardown } from './test-support.js';

// A real claude actor (the catalog's `claude --dangerously-skip-permissions`) of a daemon group,
// with a private home whose user settings record every hook payload beside the daemon's injected
// hooks: what the delivery suites and the delivery-matrix bench start.

export interface ClaudeActor {
  readonly probe: ActorProbe;
  /** Where the recording hooks save their payloads (read with `readHookPayloads`). */
  readonly hookDir: string;
  /** The actor's claude home (`$HOME`; its config dir is `.claude`). */
  readonly agentHome: string;
}

export interface ClaudeActorOptions {
  readonly actorId?: string;
  /** Seconds the recording Stop hook keeps running after saving its payload (a slow Stop hook). */
  readonly stopHoldSeconds?: number;
}

export async function addClaudeActor(teardown: RealCliTeardown, clis: RealClis, group: DaemonGroup, model: FakeModel, options: ClaudeActorOptions = {}): Promise<ClaudeActor> {
  const actorId = options.actorId ?? 'peer1';
  const agentHome = tempDir(teardown, 'real-claude-home-');
  seedClaudeHome(agentHome, group.scope, { acceptBypassPermissions: true });
  const hookDir = join(agentHome, 'hook-payloads');
  const quick = JSON.parse(recordingHookSettings(hookDir, ['SessionStart', 'UserPromptSubmit'])) as { hooks: object };
  const stop = JSON.parse(recordingHookSettings(hookDir, ['Stop'], { holdSeconds: options.stopHoldSeconds ?? 0 })) as { hooks: object };
  mkdirSync(join(agentHome, '.claude'), { recursive: true });
  writeFileSync(join(agentHome, '.claude', 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true, hooks: { ...quick.hooks, ...stop.hooks } }));
  await group.client.call('actor_add', {
    group_id: group.groupId,
    actor_id: actorId,
    runtime: 'claude',
    env: {
      ...claudeEnv(model.url, agentHome, clis.withPath().PATH!),
      // As root (CI here), claude refuses --dangerously-skip-permissions unless told it runs in a sandbox.
      ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
    },
  });
  const probe = actorProbe(group, actorId, () =>
    `hooks: ${JSON.stringify(readHookPayloads(hookDir).map((p) => [p.hook_event_name, p.prompt_id, String(p.prompt ?? '').slice(0, 40)]))}\n` +
    `model: ${model.requests.filter((r) => r.main).length} main requests`,
  );
  return { probe, hookDir, agentHome };
}

/** What a background-session claude actor was launched with (spec §8.4: `claude --bg` plus `claude attach`). */
export interface BackgroundLaunchEvidence {
  /** The actor PTY's command line (`claude attach <job>`). */
  readonly ptyArgv: string[];
  readonly receipt: { session_id: string; job_id: string };
  /** The owner-scoped settings file the job runs with (hooks and the launch environment). */
  readonly settings: { hooks: Record<string, Array<{ hooks: Array<{ type: string; url?: string }> }>>; env: Record<string, string> };
  readonly settingsPath: string;
  /** Agent View's own record of the job (`jobs/<short>/state.json`), raw: its respawn flags are the `--bg` command line. */
  readonly jobState: string;
}

export function backgroundLaunchEvidence(cccHome: string, groupId: string, actorId: string, agentHome: string, ptyPid: number): BackgroundLaunchEvidence {
  const dir = join(cccHome, 'groups', groupId, 'state', 'runners', 'claude-background');
  const receipt = JSON.parse(readFileSync(join(dir, `${actorId}.json`), 'utf8')) as BackgroundLaunchEvidence['receipt'];
  const settingsPath = join(dir, `${actorId}.settings.json`);
  return {
    ptyArgv: readFileSync(`/proc/${ptyPid}/cmdline`, 'utf8').split('\0'),
    receipt,
    settings: JSON.parse(readFileSync(settingsPath, 'utf8')) as BackgroundLaunchEvidence['settings'],
    settingsPath,
    jobState: readFileSync(join(agentHome, '.claude', 'jobs', receipt.job_id, 'state.json'), 'utf8'),
  };
}
