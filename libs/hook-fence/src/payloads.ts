import { RuntimeHookPayload } from '@cccc/ipc-protocol';
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
 * The documented hook input, read against the one payload schema: `RuntimeHookPayload`, the wire
 * contract of `runtime_hook_event` in @cccc/ipc-protocol, which defines every field and limit.
 * It lives there, not here, because ipc-protocol is the bottom layer and must not import this
 * lib, while this lib may build on it. Two things differ from the wire, and only these: unknown
 * keys are allowed (a provider adds fields with every release; they are never read, while the wire
 * refuses them so no client can send prompt text), and the event name is narrowed to the events
 * the fence knows. Prompts, commands, tool inputs and outputs and notification text are never read.
 */
export const hookPayloadSchema = RuntimeHookPayload.extend({ hook_event_name: z.enum(HOOK_EVENT_NAMES) }).loose();

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
