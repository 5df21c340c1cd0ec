import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PRESENTATION_SLOT_IDS, PresentationCard, type PresentationSnapshot } from '@cccc/ipc-protocol';
import type { HomeLayout } from '../home-layout.js';
import { readJsonFile, writeJsonFile } from '../json-file.js';
import { emptySnapshot } from './cards.js';

// The IO shell of §8.13: groups/<gid>/state/presentation.json, the canonical snapshot.

export function presentationPath(layout: HomeLayout, groupId: string): string {
  return join(layout.groupDir(groupId), 'state', 'presentation.json');
}

/**
 * The stored snapshot, always four ordered slots: a missing or unreadable file is the empty
 * board; a card that does not validate (hand-edited) leaves its slot empty; a highlight that
 * names no slot is "".
 */
export function normalizeSnapshot(raw: unknown): PresentationSnapshot {
  const doc = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const out = emptySnapshot(typeof doc['updated_at'] === 'string' ? doc['updated_at'] : '');
  const slots = Array.isArray(doc['slots']) ? (doc['slots'] as unknown[]) : [];
  for (const slot of slots) {
    if (typeof slot !== 'object' || slot === null) continue;
    const { slot_id, card } = slot as Record<string, unknown>;
    const target = out.slots.find((s) => s.slot_id === slot_id);
    const parsed = PresentationCard.safeParse(card);
    if (target && parsed.success && parsed.data.slot_id === target.slot_id) target.card = parsed.data;
  }
  const highlight = doc['highlight_slot_id'];
  if ((PRESENTATION_SLOT_IDS as readonly unknown[]).includes(highlight)) out.highlight_slot_id = highlight as PresentationSnapshot['highlight_slot_id'];
  return out;
}

export function readPresentation(layout: HomeLayout, groupId: string): PresentationSnapshot {
  try {
    return normalizeSnapshot(readJsonFile(presentationPath(layout, groupId)));
  } catch {
    return emptySnapshot();
  }
}

/** Whether the snapshot file exists now (so a rollback can put back exactly what was there). */
export function readPresentationFile(layout: HomeLayout, groupId: string): unknown {
  try {
    return readJsonFile(presentationPath(layout, groupId));
  } catch {
    return undefined;
  }
}

export function writePresentation(layout: HomeLayout, groupId: string, snapshot: PresentationSnapshot): void {
  writeJsonFile(presentationPath(layout, groupId), snapshot);
}

/** Put the file back as it was before a failed transition (`undefined`: it did not exist). */
export function restorePresentationFile(layout: HomeLayout, groupId: string, previous: unknown): void {
  if (previous === undefined) rmSync(presentationPath(layout, groupId), { force: true });
  else writeJsonFile(presentationPath(layout, groupId), previous);
}
