import type { HomeLayout } from './home-layout.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { utcNowIso } from './clock.js';

// `active.json` is read by nearly every `cccc` command through `@cccc/groups/home`, so this reads
// it without zod: `activeDocOf` is the twin of the `ActiveDoc` schema (schemas/registry.ts), held
// against it by active-group.test.ts.

type Json = Record<string, unknown>;

/** What `ActiveDoc.safeParse` gives for a document it accepts (unknown keys kept, after its own). */
export interface ActiveDocValue extends Json {
  readonly v: number;
  readonly active_group_id: string;
  readonly updated_at?: string;
}

/** `ActiveDoc.safeParse(raw)`'s data, or undefined where it fails. */
export function activeDocOf(raw: unknown): ActiveDocValue | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { v = 1, active_group_id = '', updated_at, ...rest } = raw as Json;
  if (!Number.isSafeInteger(v) || typeof active_group_id !== 'string') return undefined;
  if (updated_at !== undefined && typeof updated_at !== 'string') return undefined;
  return { v: v as number, active_group_id, ...(updated_at !== undefined ? { updated_at } : {}), ...rest };
}

/** The CLI's active group id (`active.json`), or '' when none is set. */
export function readActiveGroupId(layout: HomeLayout): string {
  const raw = readJsonFile(layout.activePath);
  if (raw === undefined) return '';
  return activeDocOf(raw)?.active_group_id ?? '';
}

export function writeActiveGroupId(layout: HomeLayout, groupId: string): void {
  const base = activeDocOf(readJsonFile(layout.activePath) ?? {}) ?? { v: 1 };
  writeJsonFile(layout.activePath, { ...base, active_group_id: groupId, updated_at: utcNowIso() });
}
