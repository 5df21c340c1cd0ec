import type { PermissionOption, RequestPermissionRequest, StopReason } from '@agentclientprotocol/sdk';

// Pure mapping between ACP messages and the managed-runtime vocabulary (no IO).

/** How a `session/prompt` response ends a turn (`ManagedTurnEvent.status`). */
export function turnStatusOf(stopReason: StopReason): 'completed' | 'interrupted' | 'failed' {
  switch (stopReason) {
    case 'cancelled':
      return 'interrupted';
    case 'refusal':
      return 'failed';
    // end_turn, max_tokens, max_turn_requests: the protocol turn ended; not proof the task succeeded.
    default:
      return 'completed';
  }
}

/** The permission kind a person sees: ACP tool kinds `execute` / `edit` as the codex vocabulary, others as-is. */
export function permissionKindOf(request: RequestPermissionRequest): string {
  const kind = request.toolCall.kind ?? 'other';
  if (kind === 'execute') return 'command';
  if (kind === 'edit' || kind === 'delete' || kind === 'move') return 'file_change';
  return kind;
}

/**
 * What a person reviews: the tool call's title, kind and its raw input (the command line or
 * the file operation the agent asked for); never the agent's environment or configuration.
 */
export function permissionSummaryOf(request: RequestPermissionRequest): Record<string, unknown> {
  const raw = request.toolCall.rawInput;
  const input = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : undefined;
  const command = typeof input?.command === 'string' ? input.command : undefined;
  return {
    title: request.toolCall.title ?? null,
    tool_kind: request.toolCall.kind ?? null,
    ...(command !== undefined ? { command } : {}),
    ...(input !== undefined ? { input } : {}),
    options: request.options.map((o) => ({ kind: o.kind, name: o.name })),
  };
}

/**
 * The option that grants (or refuses) exactly this one operation: `allow_once` / `reject_once`,
 * never an "always" option when a once option exists (a person's answer grants at most one
 * operation). null when the agent offered none of that direction.
 */
export function chooseOption(options: readonly PermissionOption[], allow: boolean): PermissionOption | null {
  const order = allow ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return null;
}
