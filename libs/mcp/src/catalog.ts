import type { Tool } from './tool.js';
import { bootstrap } from './tools/bootstrap.js';
import { capabilityEnable, capabilitySearch, capabilityState } from './tools/capability.js';
import { file } from './tools/file.js';
import { actor, group } from './tools/foreman.js';
import { imBind } from './tools/im.js';
import { memory } from './tools/memory.js';
import { fileSend, messageDeliver, messageReply, messageSend, notify, replyRequestCancel } from './tools/messaging.js';
import { presentation } from './tools/presentation.js';
import { automation } from './tools/automation.js';
import { contextGet, help, inboxRead, messageHistory, terminal } from './tools/reading.js';
import { voiceSecretaryComposer, voiceSecretaryDocument, voiceSecretaryRequest } from './tools/voice-secretary.js';

/** Every cccc_* tool this server knows, in listing order. */
export const ALL_TOOLS: readonly Tool[] = [
  help,
  bootstrap,
  inboxRead,
  messageHistory,
  messageSend,
  messageReply,
  messageDeliver,
  replyRequestCancel,
  file,
  fileSend,
  contextGet,
  memory,
  notify,
  terminal,
  presentation,
  automation,
  group,
  actor,
  capabilitySearch,
  capabilityEnable,
  capabilityState,
  imBind,
  voiceSecretaryDocument,
  voiceSecretaryRequest,
  voiceSecretaryComposer,
];

export type Role = 'foreman' | 'peer';

/** Tools every actor sees, whatever it has enabled: the ones no pack gates. */
export const BASE_TOOLS: readonly Tool[] = ALL_TOOLS.filter((tool) => !tool.pack);

/** The packs a role has by default (the daemon's allowlist role_defaults say the same). */
export const ROLE_DEFAULT_PACKS: Readonly<Record<Role, readonly string[]>> = { foreman: ['pack:group-runtime'], peer: [] };

/**
 * The fallback catalog, used when the daemon cannot answer capability_state: base tools plus the
 * role's default packs. It grants nothing: the daemon still checks every op.
 */
export function visibleTools(role: Role, actorId?: string): Tool[] {
  return ALL_TOOLS.filter((tool) => (!tool.pack || ROLE_DEFAULT_PACKS[role].includes(tool.pack)) && (!tool.onlyFor || tool.onlyFor === actorId));
}

export function findTool(name: string): Tool | undefined {
  return ALL_TOOLS.find((tool) => tool.name === name);
}
