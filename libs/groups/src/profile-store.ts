import { assertRuntimeMode } from './runtime-mode.js';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { FileLock } from '@cccc/durable-fs';
import { ZodError } from 'zod';
import { utcNowIso } from './clock.js';
import { normalizeCommand } from './command-line.js';
import { assertValidEnvMap } from './env-keys.js';
import { groupError } from './errors.js';
import type { HomeLayout } from './home-layout.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { ProfileDoc } from './schemas/profile.js';

const PROFILE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function assertProfileId(id: string): void {
  if (!PROFILE_ID.test(id)) throw groupError('invalid_request', `invalid profile id: ${JSON.stringify(id.slice(0, 64))}`, { field: 'profile_id' });
}

export function newProfileId(): string {
  return `ap_${randomBytes(6).toString('hex')}`;
}

/** A stored profile (`profile_not_found`). The command may still be a legacy string here. */
export function loadProfile(layout: HomeLayout, profileId: string): ProfileDoc {
  assertProfileId(profileId);
  const raw = readJsonFile(layout.profilePath(profileId));
  if (raw === undefined) throw groupError('profile_not_found', `profile not found: ${profileId}`, { profile_id: profileId });
  try {
    return ProfileDoc.parse(raw);
  } catch (err) {
    const issue = err instanceof ZodError ? err.issues[0] : undefined;
    throw groupError('invalid_request', `profile ${profileId} is invalid: ${issue ? `${issue.path.join('.')}: ${issue.message}` : String(err)}`, {
      profile_id: profileId,
    });
  }
}

export function listProfileDocs(layout: HomeLayout): ProfileDoc[] {
  if (!existsSync(layout.profilesDir)) return [];
  const out: ProfileDoc[] = [];
  for (const name of readdirSync(layout.profilesDir).sort()) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    try {
      out.push(loadProfile(layout, name.slice(0, -'.json'.length)));
    } catch {
      // An unreadable profile is skipped in listings; get reports it.
    }
  }
  return out;
}

export interface ProfileInput {
  id?: string;
  name: string;
  runtime: string;
  runtime_mode?: 'default' | 'acp';
  command?: string[] | string;
  submit?: 'enter' | 'newline' | 'none';
  env?: Record<string, string>;
  capability_defaults?: { autoload_capabilities?: string[]; default_scope?: 'actor' | 'session'; session_ttl_seconds?: number } | null;
}

/**
 * Write a profile under the profiles lock with optimistic concurrency: `expectedRevision`
 * must match the stored revision (`profile_revision_conflict`). Returns the saved document and
 * any legacy `env` values, which the caller migrates into profile secrets.
 */
export async function saveProfile(
  layout: HomeLayout,
  input: ProfileInput,
  expectedRevision?: number,
): Promise<{ profile: ProfileDoc; legacyEnv: Record<string, string> }> {
  if (typeof input.name !== 'string' || !input.name.trim()) throw groupError('invalid_request', 'profile.name is required', { field: 'name' });
  if (typeof input.runtime !== 'string' || !input.runtime.trim()) throw groupError('invalid_request', 'profile.runtime is required', { field: 'runtime' });
  const legacyEnv = input.env === undefined ? {} : assertValidEnvMap(input.env, 'profile.env');
  const id = input.id?.trim() || newProfileId();
  assertProfileId(id);
  // state/ may not exist yet: created owner-only, as `cccc doctor` expects of it.
  mkdirSync(layout.profilesDir, { recursive: true, mode: 0o700 });
  const lock = await FileLock.acquire(layout.profilesLockPath);
  try {
    const existingRaw = readJsonFile(layout.profilePath(id));
    const existing = existingRaw === undefined ? undefined : ProfileDoc.parse(existingRaw);
    if (expectedRevision !== undefined && (existing?.revision ?? 0) !== expectedRevision) {
      throw groupError('profile_revision_conflict', `profile ${id} is at revision ${existing?.revision ?? 0}, not ${expectedRevision}`, {
        profile_id: id,
        current_revision: existing?.revision ?? 0,
      });
    }
    const now = utcNowIso();
    const defaults = input.capability_defaults
      ? {
          ...input.capability_defaults,
          ...(input.capability_defaults.session_ttl_seconds !== undefined
            ? { session_ttl_seconds: Math.min(86_400, Math.max(60, Math.trunc(input.capability_defaults.session_ttl_seconds))) }
            : {}),
        }
      : input.capability_defaults;
    const profile = ProfileDoc.parse({
      ...(existingRaw as Record<string, unknown> | undefined),
      v: 1,
      id,
      name: input.name.trim(),
      runtime: input.runtime.trim(),
      ...(input.runtime_mode !== undefined ? { runtime_mode: assertRuntimeMode(input.runtime.trim(), input.runtime_mode, 'invalid_request') } : {}),
      command: normalizeCommand(input.command ?? (existing ? existing.command : [])),
      submit: input.submit ?? existing?.submit ?? 'enter',
      env: {},
      ...(defaults !== undefined ? { capability_defaults: defaults } : {}),
      revision: (existing?.revision ?? 0) + 1,
      created_at: existing?.created_at || now,
      updated_at: now,
    });
    writeJsonFile(layout.profilePath(id), profile);
    return { profile, legacyEnv };
  } finally {
    lock.release();
  }
}

export function removeProfileFiles(layout: HomeLayout, profileId: string): void {
  assertProfileId(profileId);
  rmSync(layout.profilePath(profileId), { force: true });
  rmSync(layout.profileSecretsPath(profileId), { force: true });
}
