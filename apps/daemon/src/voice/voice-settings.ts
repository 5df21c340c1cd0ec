import { authorizeGroupAction, effectiveRole, principalOf, readActorPrivateEnvForLaunch, updateActorPrivateEnv, updateGroup, type GroupDoc } from '@cccc/groups';
import { rmSync } from 'node:fs';
import {
  applyVoiceSettingsPatch,
  assertVoiceConfigPatch,
  assistantRecord,
  updateAssistantsFile,
  VOICE_ACTOR_ID,
  VOICE_ASSISTANT_ID,
  voiceError,
  VoiceErrorCodes,
  voiceSecretaryActorFrom,
  voiceSettingsOf,
  voiceWorkflowOf,
  type VoiceSettingsPatch,
} from '@cccc/voice';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { ActorRuntimeService } from '../runtime/actor-runtime-service.js';
import type { LedgerEvent } from '@cccc/ledger';

export type VoiceSettingsDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'> & {
  readonly actorRuntime: Pick<ActorRuntimeService, 'startChecked' | 'stop' | 'isRunning'>;
};

export interface VoiceSettingsArgs {
  readonly group_id: string;
  readonly by?: string;
  readonly patch: VoiceSettingsPatch;
}

/** What the group files held before a change: enough to put them back. */
interface Before {
  readonly assistants: unknown;
  readonly actorIndex: number;
  readonly actor: GroupDoc['actors'][number] | undefined;
  readonly secrets: Record<string, string>;
}

/**
 * assistant_settings_update (§8.3): settings in group.yaml:assistants.voice_secretary, and the
 * hidden `voice-secretary` actor they imply. Enabling copies the foreman's runtime config and
 * private env; an explicit `enabled: true` in a running group starts the actor and rolls every
 * file back when it does not stay up. Disabling stops the actor, then removes it and its env.
 */
export async function updateVoiceSettings(deps: VoiceSettingsDeps, args: VoiceSettingsArgs): Promise<{ assistant: Record<string, unknown>; event: LedgerEvent; actor_started: boolean }> {
  const gid = args.group_id;
  const by = principalOf(args.by);
  assertVoiceConfigPatch(args.patch.config);
  const { group } = authorizeGroupAction(deps.layout, by, 'group.settings', gid);
  const wasEnabled = voiceSettingsOf(group).enabled;
  const enabled = args.patch.enabled ?? wasEnabled;
  const foreman = group.actors.find((a) => effectiveRole(group.actors, a.id) === 'foreman');
  const hasActor = group.actors.some((a) => a.id === VOICE_ACTOR_ID);
  if (enabled && !hasActor && !foreman) {
    throw voiceError(VoiceErrorCodes.foremanMissing, 'Voice Secretary needs a foreman actor to inherit its runtime configuration');
  }
  if (!enabled && hasActor) await deps.actorRuntime.stop(gid, VOICE_ACTOR_ID);

  const secretsPath = deps.layout.actorSecretsPath(gid, VOICE_ACTOR_ID);
  const before = await deps.groupLocks.run(gid, async () => {
    const current = deps.groups.get(gid);
    const snapshot: Before = {
      assistants: (current as Record<string, unknown>).assistants,
      actorIndex: current.actors.findIndex((a) => a.id === VOICE_ACTOR_ID),
      actor: current.actors.find((a) => a.id === VOICE_ACTOR_ID),
      secrets: readActorPrivateEnvForLaunch(deps.layout, gid, VOICE_ACTOR_ID),
    };
    try {
      await updateGroup(deps.layout, gid, (g) => {
        const doc = g as Record<string, unknown>;
        doc.assistants = applyVoiceSettingsPatch(doc.assistants, args.patch, enabled);
        const index = g.actors.findIndex((a) => a.id === VOICE_ACTOR_ID);
        if (!enabled) {
          if (index >= 0) g.actors.splice(index, 1);
        } else if (index < 0) {
          g.actors.push(voiceSecretaryActorFrom(foreman!, new Date().toISOString()));
        } else if (args.patch.enabled === true) {
          g.actors[index] = { ...g.actors[index]!, enabled: true };
        }
      });
      if (!enabled) rmSync(secretsPath, { force: true });
      // The actor's private env is the foreman's (its secrets stay in the secrets store, never in the ledger).
      else if (!hasActor && foreman) await updateActorPrivateEnv(deps.layout, 'user', gid, VOICE_ACTOR_ID, { clear: true, set: readActorPrivateEnvForLaunch(deps.layout, gid, foreman.id) });
    } finally {
      deps.groups.invalidate(gid);
    }
    return snapshot;
  });

  let actorStarted = false;
  const after = deps.groups.get(gid);
  if (enabled && args.patch.enabled === true && after.running) {
    const checked = await deps.actorRuntime.startChecked(gid, VOICE_ACTOR_ID, 'assistant_settings_update').catch((error: unknown) => ({ error, result: undefined }));
    if (!checked.result?.running) {
      await deps.actorRuntime.stop(gid, VOICE_ACTOR_ID);
      await rollback(deps, gid, before);
      const failure = checked.result?.start_failure;
      const error = (checked as { error?: { code?: string; message?: string } }).error;
      throw voiceError(VoiceErrorCodes.startFailed, `the voice-secretary actor did not start: ${failure?.message ?? error?.message ?? 'it stopped'}`, {
        ...(failure ? { start_failure: failure } : {}),
        ...(error?.code ? { runtime_code: error.code } : {}),
      });
    }
    actorStarted = true;
  }

  return deps.groupLocks.run(gid, async () => {
    const stateDoc = await updateAssistantsFile(deps.layout.groupDir(gid), (doc) => {
      const prev = (doc.assistant ?? {}) as Record<string, unknown>;
      const lifecycle = !enabled ? 'disabled' : prev.lifecycle && prev.lifecycle !== 'disabled' ? prev.lifecycle : 'idle';
      return { ...doc, assistant: { ...prev, assistant_id: VOICE_ASSISTANT_ID, lifecycle, updated_at: new Date().toISOString() } };
    });
    const { event } = await deps.ledgers.append(gid, {
      kind: 'assistant.settings.update',
      by,
      data: { assistant_id: VOICE_ASSISTANT_ID, patch: { ...args.patch }, actor_started: actorStarted },
    });
    const group = deps.groups.get(gid);
    const assistant = assistantRecord(voiceSettingsOf(group), voiceWorkflowOf(stateDoc), {
      configured: group.actors.some((a) => a.id === VOICE_ACTOR_ID),
      running: deps.actorRuntime.isRunning(gid, VOICE_ACTOR_ID),
    });
    return { assistant, event, actor_started: actorStarted };
  });
}

/** Put group.yaml's assistants entry, the actor and its private env back as they were. */
async function rollback(deps: VoiceSettingsDeps, gid: string, before: Before): Promise<void> {
  await deps.groupLocks.run(gid, async () => {
    try {
      await updateGroup(deps.layout, gid, (g) => {
        const doc = g as Record<string, unknown>;
        if (before.assistants === undefined) delete doc.assistants;
        else doc.assistants = before.assistants;
        g.actors = g.actors.filter((a) => a.id !== VOICE_ACTOR_ID);
        if (before.actor) g.actors.splice(Math.min(before.actorIndex, g.actors.length), 0, before.actor);
      });
      if (before.actor) await updateActorPrivateEnv(deps.layout, 'user', gid, VOICE_ACTOR_ID, { clear: true, set: before.secrets });
      else rmSync(deps.layout.actorSecretsPath(gid, VOICE_ACTOR_ID), { force: true });
    } finally {
      deps.groups.invalidate(gid);
    }
  });
}
