import type { z } from 'zod';

/** How an op's connection continues after its response line, if it upgrades (§4.4, §4.5). */
export type OpUpgrade = 'ndjson_stream' | 'raw_stream';

export interface OpSpec<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly args: A;
  readonly result: R;
  /** Argument keys that are refused with `code` instead of being ignored (legacy fields). */
  readonly rejectedArgs?: { readonly keys: readonly string[]; readonly code: string };
  readonly upgrade?: OpUpgrade;
  readonly summary: string;
}

/** Identity helper that keeps each catalog entry's precise schema types. */
export function defineOp<A extends z.ZodType, R extends z.ZodType>(spec: OpSpec<A, R>): OpSpec<A, R> {
  return spec;
}
