import { mkdirSync, writeFileSync } from 'node:fs';
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
  return { probe, hookDir };
}
