import { z } from 'zod';
import { defineOp } from './define.js';

/**
 * §8.1 ping. `implementation` is a string: the spec's "rust" names the reference daemon (ours
 * answers "cccc-ts"). `compatibility` is what a client may rely on instead ("cccc-ipc-v1": see
 * README "Compatibility"); `executable` is the CLI entry running the daemon, null when it has none.
 * Both stay optional here, since this catalog also reads other daemons' answers.
 */
export const ping = defineOp({
  summary: 'Daemon identity, protocol version and capability map.',
  args: () => z.object({}),
  result: () => z.looseObject({
    version: z.string(),
    implementation: z.string(),
    pid: z.number().int(),
    ts: z.string(),
    ipc_v: z.literal(1),
    capabilities: z.record(z.string(), z.unknown()),
    compatibility: z.string().optional(),
    build: z.object({ source_id: z.string() }).optional(),
    executable: z.string().nullable().optional(),
  }),
});

/** §8.1 shutdown, with the optional owner fence. */
export const shutdown = defineOp({
  summary: 'Stop the daemon (fenced by expected_pid when given).',
  args: () => z.object({ expected_pid: z.number().int().positive().optional() }),
  result: () => z.object({ message: z.string() }),
});
