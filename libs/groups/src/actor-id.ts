import { groupError } from './errors.js';

const RESERVED = new Set(['user', 'all', 'system', 'foreman', 'peers', 'admin', 'root', 'cccc']);
const FIRST = /^[\p{L}\p{N}]$/u;
const REST = /^[\p{L}\p{N}\p{M}_-]$/u;
export const MAX_ACTOR_ID_LENGTH = 32;

/** Why an actor id is invalid, or undefined when it is valid (`kernel/actors.py::validate_actor_id`). */
export function actorIdProblem(id: string): string | undefined {
  const chars = [...id];
  if (chars.length === 0) return 'actor id must not be empty';
  if (chars.length > MAX_ACTOR_ID_LENGTH) return `actor id must be at most ${MAX_ACTOR_ID_LENGTH} characters`;
  const folded = id.toLowerCase().normalize('NFKC');
  const bare = folded.startsWith('@') ? folded.slice(1) : folded;
  if (RESERVED.has(bare)) return `actor id "${id}" is reserved`;
  if (!FIRST.test(chars[0]!)) return 'actor id must start with a letter or digit';
  const bad = chars.slice(1).find((c) => !REST.test(c));
  if (bad !== undefined) return `actor id must not contain ${JSON.stringify(bad)}`;
  return undefined;
}

export function isValidActorId(id: string): boolean {
  return actorIdProblem(id) === undefined;
}

/** Throw `invalid_actor_id` unless `id` is a valid actor id. */
export function assertValidActorId(id: string): void {
  const problem = actorIdProblem(id);
  if (problem) throw groupError('invalid_actor_id', problem, { actor_id: id });
}

/** The next free `<runtime>-N` id (N from 1), skipping ids already taken. */
export function nextAutoActorId(runtime: string, takenIds: Iterable<string>): string {
  const taken = new Set([...takenIds].map((id) => id.toLowerCase()));
  const base = runtime.trim().toLowerCase().replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^[-_]+/, '') || 'actor';
  for (let n = 1; ; n += 1) {
    const candidate = `${base.slice(0, MAX_ACTOR_ID_LENGTH - String(n).length - 1)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
