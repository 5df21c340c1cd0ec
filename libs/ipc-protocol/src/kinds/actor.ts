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
  effective_working_updated_at: z.string(),
  effective_active_task_id: z.string().nullable(),
});
export type ActorActivityEntry = z.infer<typeof ActorActivityEntry>;

/** `actor.activity`: appended by the daemon only when some actor's effective state changes. */
export const ActorActivityData = z.looseObject({ actors: z.array(ActorActivityEntry) });
export type ActorActivityData = z.infer<typeof ActorActivityData>;
