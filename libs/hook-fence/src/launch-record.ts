import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** `daemon/runtime-hook-launch/<sha>.json`: which process a launch token belongs to. */
export const launchRecordSchema = z.strictObject({
  v: z.literal(1),
  group_id: z.string().min(1),
  actor_id: z.string().min(1),
  runtime: z.enum(['claude', 'codex']),
  launch_token: z.string().min(1),
  hook_enabled: z.boolean(),
  pid: z.number().int().positive().nullable(),
});
export type LaunchRecord = z.infer<typeof launchRecordSchema>;

/** A corrupt record is no identity at all: the caller fails closed. */
export function decodeLaunchRecord(input: unknown): LaunchRecord | null {
  const parsed = launchRecordSchema.safeParse(input);
  return parsed.success ? parsed.data : null;
}

/** File stem of an actor's hook state and launch record: sha256 of `group_id\0actor_id`. */
export function actorHookKey(groupId: string, actorId: string): string {
  return createHash('sha256').update(`${groupId}\0${actorId}`).digest('hex');
}

/** A fresh launch token (32 hex chars, like uuid4().hex). */
export function newLaunchToken(): string {
  return randomBytes(16).toString('hex');
}
