import { z } from 'zod';

/** `${CCCC_HOME}/daemon/ccccd.addr.json` (§3.1). Unknown fields are ignorable metadata. */
export const DaemonAddrV1 = z
  .looseObject({
    v: z.literal(1),
    transport: z.enum(['unix', 'tcp']),
    path: z.string().default(''),
    host: z.string().default(''),
    port: z.number().int().nonnegative().default(0),
    pid: z.number().int().optional(),
    version: z.string().optional(),
    ts: z.string().optional(),
  })
  .refine((a) => (a.transport === 'unix' ? a.path.length > 0 : a.host.length > 0 && a.port > 0), {
    message: 'unix needs a path; tcp needs a host and a positive port',
  });
export type DaemonAddrV1 = z.infer<typeof DaemonAddrV1>;
