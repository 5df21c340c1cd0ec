import { ok } from '../wire.js';

/** A group with one custom actor `peer1` (never started): Mail can be addressed to it. */
export async function createGroup(sock: string, title: string): Promise<string> {
  const { group_id } = await ok<{ group_id: string }>(sock, 'group_create', { title });
  await ok(sock, 'actor_add', { group_id, actor_id: 'peer1', runtime: 'custom', command: ['cat'] });
  return group_id;
}

export function mail(gid: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { group_id: gid, text, to: ['peer1'], message_mode: 'mail', ...extra };
}
