import { z } from 'zod';

/**
 * `headless.turn.started` / `.completed` / `.failed`: a managed session's turn as its provider
 * reported it (Codex app-server `turn/started` / `turn/completed`), for the actor's exact
 * session generation. Completed means a finished protocol turn, not that the task succeeded;
 * failed carries the provider's normalized error.
 */
export const HeadlessTurnData = z.looseObject({
  actor_id: z.string().min(1),
  generation: z.string().min(1),
  session_id: z.string().min(1),
  turn_id: z.string().min(1),
  transport: z.string().min(1),
  status: z.string().nullish(),
  error: z.string().nullish(),
});
export type HeadlessTurnData = z.infer<typeof HeadlessTurnData>;
