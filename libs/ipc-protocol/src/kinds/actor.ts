import { z } from 'zod';

/** `actor.add`: carries the full Actor doc; its append position starts a new generation. */
export const ActorAddData = z.looseObject({
  actor: z.looseObject({
    id: z.string().min(1),
    created_at: z.string().optional(),
  }),
});
export type ActorAddData = z.infer<typeof ActorAddData>;

/** Effective working state of an actor (REFERENCE_NOTES §4). */
export const EffectiveWorkingState = z.enum(['stopped', 'idle', 'working', 'waiting', 'stuck']);
export type EffectiveWorkingState = z.infer<typeof EffectiveWorkingState>;

/** One actor in `actor.activity`: the reference fields plus where the state came from. */
export const ActorActivityEntry = z.looseObject({
  id: z.string().min(1),
  running: z.boolean(),
  runner_effective: z.string(),
  idle_seconds: z.number().nonnegative().nullable(),
  effective_working_state: EffectiveWorkingState,
  effective_working_reason: z.string(),
  /** null in the reference before the state first changes. */
  effective_working_updated_at: z.string().nullable(),
  effective_active_task_id: z.string().nullable(),
});
export type ActorActivityEntry = z.infer<typeof ActorActivityEntry>;

/** `actor.activity`: appended by the daemon only when some actor's effective state changes. */
export const ActorActivityData = z.looseObject({ actors: z.array(ActorActivityEntry) });
export type ActorActivityData = z.infer<typeof ActorActivityData>;

/** `actor.update`: the fields an update changed, as a patch of the Actor doc. */
export const ActorUpdateData = z.looseObject({
  actor_id: z.string().min(1),
  patch: z.record(z.string(), z.unknown()),
  reason: z.string().nullish(),
});
export type ActorUpdateData = z.infer<typeof ActorUpdateData>;

/** `actor.remove`. */
export const ActorRemoveData = z.looseObject({ actor_id: z.string().min(1) });
export type ActorRemoveData = z.infer<typeof ActorRemoveData>;

/**
 * `actor.start` / `actor.stop` / `actor.restart` / `actor.new_session`: which runner was asked
 * for and which ran; a stop of an agent that ended by itself carries its exit status.
 */
export const ActorLifecycleData = z.looseObject({
  actor_id: z.string().min(1),
  runner: z.string().nullish(),
  runner_effective: z.string().nullish(),
  reason: z.string().nullish(),
  exit_code: z.number().int().nullish(),
  /** node-pty reports the terminating signal by number. */
  signal: z.union([z.string(), z.number().int()]).nullish(),
});
export type ActorLifecycleData = z.infer<typeof ActorLifecycleData>;
