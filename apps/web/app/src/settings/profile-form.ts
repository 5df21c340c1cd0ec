/**
 * The Profiles editor's draft, pure: a stored profile (implementation-shaped) to form fields and
 * back to the upsert input. The command is edited as one line split on whitespace, the same
 * normalization the daemon applies to a shell-string command.
 */
export interface ProfileDraft {
  readonly id?: string;
  readonly name: string;
  readonly runtime: string;
  readonly command: string;
}

export const EMPTY_DRAFT: ProfileDraft = { name: '', runtime: 'custom', command: '' };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function draftOf(profile: Readonly<Record<string, unknown>> & { id: string }): ProfileDraft {
  const command = Array.isArray(profile.command) ? profile.command.filter((x): x is string => typeof x === 'string').join(' ') : str(profile.command);
  return { id: profile.id, name: str(profile.name), runtime: str(profile.runtime) || 'custom', command };
}

/** The `profile` arg of actor_profile_upsert; an empty command is left to the runtime's default. */
export function upsertInput(draft: ProfileDraft): { id?: string; name: string; runtime: string; command?: string[] } {
  const argv = draft.command.trim().split(/\s+/).filter(Boolean);
  return {
    ...(draft.id ? { id: draft.id } : {}),
    name: draft.name.trim(),
    runtime: draft.runtime.trim(),
    ...(argv.length > 0 ? { command: argv } : {}),
  };
}

/** The stored revision, when the profile has one, for optimistic concurrency. */
export function revisionOf(profile: Readonly<Record<string, unknown>>): number | undefined {
  const r = profile.revision;
  return typeof r === 'number' && Number.isInteger(r) && r >= 0 ? r : undefined;
}

/** A secret key as the daemon's env maps accept it (shell-style name). */
export const isSecretKey = (key: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);
