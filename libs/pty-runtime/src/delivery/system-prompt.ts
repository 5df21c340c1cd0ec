import { getRuntime } from '../runtime/catalog.js';

export interface TeamMember {
  readonly id: string;
  readonly role: 'foreman' | 'peer';
  readonly title?: string;
  readonly runtime?: string;
}

export interface PromptScope {
  readonly label?: string;
  readonly path: string;
  readonly active?: boolean;
}

export interface SystemPromptInput {
  readonly actorId: string;
  readonly role: 'foreman' | 'peer';
  readonly groupTitle: string;
  readonly groupId: string;
  readonly runtime: string;
  readonly runner: 'pty' | 'headless';
  readonly team: readonly TeamMember[];
  readonly foreman?: string;
  readonly scopes: readonly PromptScope[];
  /** PROJECT.md in the active scope: its path when present, null when missing, undefined unknown. */
  readonly projectMdPath?: string | null;
  /** Contents of CCCC_PREAMBLE.md, replacing the default guidance when non-empty. */
  readonly preambleOverride?: string;
}

export const DEFAULT_PREAMBLE =
  'On cold start or resume, call the MCP tool `cccc_bootstrap` first: it returns your group, your role, ' +
  'your inbox and the current tasks. Then continue the work it shows, coordinating through cccc messages.';

const PROTOCOL = [
  'CCCC Protocol:',
  '- Messages arrive as `[cccc] <sender> → <recipients> [event_id=<id>]: <body>`; `reply_required` in that header means the sender is waiting for your answer.',
  '- Answer a message with cccc_message_reply, event_id set to that message\'s event_id. Use cccc_message_send only to start a new message.',
  '- Mail is not pushed into your terminal: when told MAIL PENDING, call cccc_inbox_read when appropriate.',
  '- `[cccc] SYSTEM (...)` lines are notifications from the daemon, not from a person.',
];

function mcpSetupBlock(): string {
  return [
    '[CCCC] MCP setup request',
    'This runtime is not wired to CCCC automatically. Register an MCP server named "cccc" that runs `cccc mcp`,',
    'passing CCCC_HOME, CCCC_GROUP_ID and CCCC_ACTOR_ID from your environment, then reload your tools.',
  ].join('\n');
}

/** The group preamble sent once per PTY session before the first delivery (REFERENCE_NOTES §3.4). */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const team = input.team.map((m) => `${m.id} (${m.role}${m.id === input.actorId ? ', you' : ''})`).join(', ');
  const lines = [
    `[CCCC] You are ${input.actorId} (${input.role}) in group '${input.groupTitle}'`,
    `group_id: ${input.groupId}`,
    `runtime: ${input.runtime} (${input.runner})`,
    `team: ${team || input.actorId}`,
    `foreman: ${input.foreman ?? 'none'}`,
  ];
  if (input.projectMdPath !== undefined) lines.push(input.projectMdPath ? `PROJECT.md: ${input.projectMdPath}` : 'PROJECT.md: missing');
  if (input.scopes.length > 0) {
    lines.push('scopes:');
    for (const s of input.scopes) lines.push(`${s.active ? '*' : ' '} ${s.label ? `${s.label} ` : ''}${s.path}`);
  }
  lines.push('---', ...PROTOCOL, '', input.preambleOverride?.trim() ? input.preambleOverride.trim() : DEFAULT_PREAMBLE);
  const prompt = lines.join('\n');
  return getRuntime(input.runtime).mcpSetupPrompt ? `${mcpSetupBlock()}\n\n${prompt}` : prompt;
}
