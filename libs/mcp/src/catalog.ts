import type { Tool } from './tool.js';
import { bootstrap } from './tools/bootstrap.js';
import { file } from './tools/file.js';
import { actor, group } from './tools/foreman.js';
import { memory } from './tools/memory.js';
import { fileSend, messageDeliver, messageReply, messageSend, notify, replyRequestCancel } from './tools/messaging.js';
import { contextGet, help, inboxRead, messageHistory, terminal } from './tools/reading.js';

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
  group,
  actor,
];

export type Role = 'foreman' | 'peer';

/** The tools an actor of this role sees (pure; the role comes from actor_list). */
export function visibleTools(role: Role): Tool[] {
  return ALL_TOOLS.filter((tool) => !tool.foremanOnly || role === 'foreman');
}

export function findTool(name: string): Tool | undefined {
  return ALL_TOOLS.find((tool) => tool.name === name);
}
