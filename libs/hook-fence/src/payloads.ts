import { z } from 'zod';
import { sanitizeId, sanitizeToolName } from './privacy.js';

/** Events both providers document for command hooks. */
export const HOOK_EVENT_NAMES = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'StopFailure',
  'SessionEnd',
] as const;
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

export type HookRuntime = 'claude' | 'codex';

/**
 * The documented hook input, loose: providers add fields with every release. Only the fields a
 * fence or the activity channel needs are typed; prompts, commands, tool inputs and outputs and
 * notification text are never read.
 */
export const hookPayloadSchema = z.looseObject({
  hook_event_name: z.enum(HOOK_EVENT_NAMES),
  session_id: z.string().min(1).max(256),
  turn_id: z.string().max(256).optional(),
  prompt_id: z.string().max(256).optional(),
  tool_use_id: z.string().max(256).optional(),
  tool_name: z.string().optional(),
  notification_type: z.string().max(64).optional(),
  agent_id: z.string().max(256).optional(),
  agent_type: z.string().optional(),
  cwd: z.string().optional(),
});

/** The subset of a payload that survives parsing: identities and labels only. */
export interface HookEvent {
  runtime: HookRuntime;
  event: HookEventName;
  sessionId: string;
  /** Codex `turn_id`; for Claude the `prompt_id` when present. */
  turnId: string | null;
  toolUseId: string | null;
  toolName: string | null;
  notificationType: string | null;
  agentId: string | null;
}

export type ParseResult<T> = { value: T } | { error: string };

/** `unknown` in, a privacy-reduced `HookEvent` out; the error names the failing field. */
export function parseHookPayload(runtime: HookRuntime, input: unknown): ParseResult<HookEvent> {
  const parsed = hookPayloadSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { error: `${issue.path.join('.') || '(root)'}: ${issue.message}` };
  }
  const p = parsed.data;
  const turn = runtime === 'codex' ? p.turn_id : p.prompt_id;
  return {
    value: {
      runtime,
      event: p.hook_event_name,
      sessionId: p.session_id,
      turnId: sanitizeId(turn),
      toolUseId: sanitizeId(p.tool_use_id),
      toolName: sanitizeToolName(p.tool_name),
      notificationType: sanitizeToolName(p.notification_type),
      agentId: sanitizeId(p.agent_id),
    },
  };
}
