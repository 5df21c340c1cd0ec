import { z } from 'zod';

/** §5.1: strict at the envelope level: unknown top-level fields are rejected. */
export const DaemonRequestV1 = z
  .object({
    v: z.literal(1),
    op: z.string().min(1),
    args: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type DaemonRequestV1 = z.infer<typeof DaemonRequestV1>;

/** §5.2 */
export const DaemonErrorV1 = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).default({}),
});
export type DaemonErrorV1 = z.infer<typeof DaemonErrorV1>;

export const DaemonResponseV1 = z
  .object({
    v: z.literal(1),
    ok: z.boolean(),
    result: z.record(z.string(), z.unknown()).default({}),
    error: DaemonErrorV1.nullish(),
  })
  .refine((r) => (r.ok ? r.error == null : r.error != null), {
    message: 'ok responses carry no error; failed responses carry one',
  });
export type DaemonResponseV1 = z.infer<typeof DaemonResponseV1>;

export function okResponse(result: Record<string, unknown>): DaemonResponseV1 {
  return { v: 1, ok: true, result, error: null };
}

export function errorResponse(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): DaemonResponseV1 {
  return { v: 1, ok: false, result: {}, error: { code, message, details } };
}
