import type { LedgerStore } from '../store.js';
import type { RoleOf } from '../types.js';
import type { ContractCase, ContractOpenOptions } from './types.js';

/** Registers one case (or skips it with the implementation's stated reason). */
export type Check = (c: ContractCase, title: string, body: () => Promise<void>) => void;
/** Opens a fresh store for one case and always closes it. */
export type WithStore = (opts: Partial<ContractOpenOptions>, body: (s: LedgerStore) => Promise<void>) => Promise<void>;

export const roles: RoleOf = (aid) => (aid === 'lead' ? 'foreman' : aid === 'voice' ? 'internal' : 'peer');

export function actorAdd(id: string, createdAt = '2026-11-30T08:00:00.000000Z') {
  return { kind: 'actor.add', by: 'user', data: { actor: { v: 1, id, title: id, created_at: createdAt } } };
}

export function chat(by: string, to: string[], mode: 'send' | 'mail' | 'request_reply' | null, text: string, extra: Record<string, unknown> = {}) {
  return { kind: 'chat.message', by, data: { text, format: 'plain', message_mode: mode, to, ...extra } };
}

export async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

