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

/** A catalog entry as written: its schemas are built by functions, on first use. */
export interface OpDefinition<A extends z.ZodType, R extends z.ZodType> extends Omit<OpSpec<A, R>, 'args' | 'result'> {
  readonly args: () => A;
  readonly result: () => R;
}

/**
 * Keeps each catalog entry's precise schema types, and builds its two schemas the first time they
 * are read. The catalog holds some 180 ops, most of which a given process never sees: a daemon at
 * rest would otherwise keep several MB of zod objects for requests nobody sent.
 */
export function defineOp<A extends z.ZodType, R extends z.ZodType>(definition: OpDefinition<A, R>): OpSpec<A, R> {
  const { args: buildArgs, result: buildResult, ...rest } = definition;
  let args: A | undefined;
  let result: R | undefined;
  return {
    ...rest,
    get args() {
      return (args ??= buildArgs());
    },
    get result() {
      return (result ??= buildResult());
    },
  };
}
