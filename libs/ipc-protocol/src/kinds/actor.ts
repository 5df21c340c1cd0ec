import { z } from 'zod';

/** `actor.add`: carries the full Actor doc; its append position starts a new generation. */
export const ActorAddData = z.looseObject({
  actor: z.looseObject({
    id: z.string().min(1),
    created_at: z.string().optional(),
  }),
});
export type ActorAddData = z.infer<typeof ActorAddData>;
