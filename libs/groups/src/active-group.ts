import type { HomeLayout } from './home-layout.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { utcNowIso } from './clock.js';
import { ActiveDoc } from './schemas/registry.js';

/** The CLI's active group id (`active.json`), or '' when none is set. */
export function readActiveGroupId(layout: HomeLayout): string {
  const raw = readJsonFile(layout.activePath);
  if (raw === undefined) return '';
  const parsed = ActiveDoc.safeParse(raw);
  return parsed.success ? parsed.data.active_group_id : '';
}

export function writeActiveGroupId(layout: HomeLayout, groupId: string): void {
  const raw = readJsonFile(layout.activePath);
  const previous = ActiveDoc.safeParse(raw ?? {});
  const base = previous.success ? previous.data : { v: 1 };
  writeJsonFile(layout.activePath, { ...base, active_group_id: groupId, updated_at: utcNowIso() });
}
