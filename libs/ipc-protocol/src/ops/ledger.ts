import { z } from 'zod';
import { defineOp } from './define.js';

const GroupId = z.string().min(1);
const By = z.string().optional();

/** §8.12 ledger_snapshot */
export const ledger_snapshot = defineOp({
  summary: 'Count and hash every event of a group ledger in append order.',
  args: () => z.object({ group_id: GroupId, by: By, reason: z.string().optional() }),
  result: () => z.object({ snapshot: z.record(z.string(), z.unknown()) }),
});

/** §8.12 ledger_compact: the report is implementation-defined. */
export const ledger_compact = defineOp({
  summary: 'Rotate the active ledger into a sealed segment.',
  args: () => z.object({ group_id: GroupId, by: By, reason: z.string().optional(), force: z.boolean().optional() }),
  result: () => z.record(z.string(), z.unknown()),
});
