import type { z } from 'zod';
import type { OpSpec } from './define.js';
import { ping, shutdown } from './core.js';
import { ledger_compact, ledger_snapshot } from './ledger.js';
import { events_stream, term_attach } from './streams.js';

/**
 * Every op this implementation serves, by its spec name. Adding an op is one entry here plus a
 * handler registered with the router; the router refuses handlers for ops missing from it.
 */
export const opCatalog = {
  ping,
  shutdown,
  ledger_snapshot,
  ledger_compact,
  events_stream,
  term_attach,
} as const satisfies Record<string, OpSpec>;

export type OpCatalog = typeof opCatalog;
export type OpName = keyof OpCatalog;
/** What a caller may send (defaults still optional). */
export type OpArgsInput<K extends OpName> = z.input<OpCatalog[K]['args']>;
/** What a handler receives, after validation. */
export type OpArgs<K extends OpName> = z.output<OpCatalog[K]['args']>;
export type OpResult<K extends OpName> = z.output<OpCatalog[K]['result']>;

export function isOpName(op: string): op is OpName {
  return Object.hasOwn(opCatalog, op);
}
