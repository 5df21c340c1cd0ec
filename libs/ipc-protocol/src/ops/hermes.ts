import { z } from 'zod';
import { defineOp } from './define.js';

// §8.4 Hermes runtime setup ops: diagnostics of the selected user Hermes profile, the cccc MCP
// server's setup through Hermes' own MCP flow, and Hermes' MCP test with probe actor env.

const FreeRecord = z.record(z.string(), z.unknown());

export const HermesStatus = z.object({
  runtime: z.literal('hermes'),
  setup_ready: z.boolean(),
  auth_ready: z.boolean(),
  launch_ready: z.boolean(),
  hermes_cli: z.object({ available: z.boolean(), path: z.string().optional(), version: z.string().optional() }),
  hermes_home: z.string(),
  profile: z.object({ name: z.literal('default'), dir: z.string(), exists: z.boolean(), config_path: z.string(), config_exists: z.boolean() }),
  mcp: FreeRecord,
  auth: FreeRecord,
  phase0_gates: z.array(FreeRecord),
  issues: z.array(z.string()),
});
export type HermesStatus = z.infer<typeof HermesStatus>;

export const HermesOpError = z.object({ code: z.string().min(1), message: z.string() });

export const runtime_hermes_status = defineOp({
  summary: 'Hermes runtime setup diagnostics for the selected user Hermes profile.',
  args: () => z.object({}),
  result: () => HermesStatus,
});

export const runtime_hermes_prepare = defineOp({
  summary: "Configure the cccc MCP server in the selected Hermes profile through Hermes' MCP setup flow.",
  args: () => z.object({
    cwd: z.string().optional(),
    auto_enable_tools: z.boolean().optional(),
    /** Alias of auto_enable_tools. */
    yes: z.boolean().optional(),
    force_mcp: z.boolean().optional(),
    /** Alias of force_mcp. */
    force: z.boolean().optional(),
  }),
  result: () => z.object({ ok: z.boolean(), commands_run: z.array(FreeRecord).optional(), status: FreeRecord, error: HermesOpError.optional() }),
});

export const runtime_hermes_mcp_test = defineOp({
  summary: "Run Hermes' MCP test for the configured cccc server with probe CCCC actor env.",
  args: () => z.object({ cwd: z.string().optional(), group_id: z.string().optional(), actor_id: z.string().optional() }),
  result: () => z.object({
    ok: z.boolean(),
    argv: z.array(z.string()),
    result: z.object({ returncode: z.number().int(), stdout: z.string(), stderr: z.string() }).optional(),
    error: HermesOpError.optional(),
  }),
});
