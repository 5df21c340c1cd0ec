import { basename } from 'node:path';
import { lstatSync } from 'node:fs';
import {
  activeScopeRoot,
  buildCard,
  groupError,
  inferCardType,
  normalizeTable,
  planCardSource,
  principalOf,
  readPresentation,
  readPresentationFile,
  resolveScopedFile,
  restorePresentationFile,
  targetSlot,
  utcNowIso,
  withCleared,
  withPublished,
  writePresentation,
  type CardSourcePlan,
  type GroupDoc,
  type ResolvedCardSource,
} from '@cccc/groups';
import { BLOB_NAME_PATTERN, PRESENTATION_SLOT_IDS, type OpRouter } from '@cccc/ipc-protocol';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import { storeBlobs } from '../messaging/blobs.js';

export type PresentationOpsDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'>;

/** §8.13: `by` is the user, the system, or an actor of the group. */
function assertPublisher(group: GroupDoc, by: string): void {
  if (by === 'user' || by === 'system' || group.actors.some((a) => a.id === by)) return;
  throw groupError('permission_denied', `${by} may not change this group's presentation`, { by });
}

/** A stored blob of this group: `state/blobs/<sha256>_<name>` (a bare name is accepted), a regular file. */
function checkBlob(groupDir: string, input: string): { blob_rel_path: string; file_name: string } {
  const name = input.startsWith('state/blobs/') ? input.slice('state/blobs/'.length) : input;
  let ok = BLOB_NAME_PATTERN.test(name);
  if (ok) {
    try {
      ok = lstatSync(`${groupDir}/state/blobs/${name}`).isFile();
    } catch {
      ok = false;
    }
  }
  if (!ok) throw daemonError(DaemonErrorCodes.blobNotFound, `blob_rel_path is not a stored blob of this group: ${input}`, { field: 'blob_rel_path', path: input });
  return { blob_rel_path: `state/blobs/${name}`, file_name: name.replace(/^[0-9a-f]{64}_/, '') };
}

/** Check every file the card points at; inline HTML becomes a blob (content-addressed, so a retry reuses it). */
async function resolveSource(deps: PresentationOpsDeps, group: GroupDoc, plan: CardSourcePlan, title: string): Promise<ResolvedCardSource> {
  const groupDir = deps.layout.groupDir(group.group_id);
  switch (plan.kind) {
    case 'markdown':
    case 'url':
      return plan;
    case 'table':
      return { kind: 'table', table: normalizeTable(plan.table) };
    case 'workspace': {
      const file = resolveScopedFile(activeScopeRoot(group), plan.path);
      return { kind: 'workspace', rel_path: file.rel_path, file_name: basename(file.path) };
    }
    case 'blob':
      return { kind: 'blob', ...checkBlob(groupDir, plan.blob_rel_path) };
    case 'inline_html': {
      const name = `${title.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'presentation'}.html`;
      const [stored] = await storeBlobs(groupDir, [{ name, bytes: Buffer.from(plan.html, 'utf8') }]);
      return { kind: 'blob', blob_rel_path: stored!.path, file_name: name, inline_html: true };
    }
  }
}

/**
 * §8.13 presentation_get|publish|clear. Each mutation is one transition under the group's lock:
 * the snapshot file is written, then its event appended; if the append fails the file is put
 * back exactly as it was before the failure is returned.
 */
export function registerPresentationOps(router: OpRouter, deps: PresentationOpsDeps): void {
  const { layout } = deps;

  router.register('presentation_get', (args) => {
    deps.groups.get(args.group_id);
    return { group_id: args.group_id, presentation: readPresentation(layout, args.group_id) };
  });

  /** Write the snapshot, append the event, roll the file back if the append fails. */
  async function commit<K extends 'presentation.publish' | 'presentation.clear'>(groupId: string, before: unknown, write: () => void, kind: K, by: string, data: Record<string, unknown>) {
    write();
    try {
      return (await deps.ledgers.append(groupId, { kind, by, data } as never)).event;
    } catch (error) {
      restorePresentationFile(layout, groupId, before);
      throw error;
    }
  }

  router.register('presentation_publish', async (args) => {
    const by = principalOf(args.by);
    const group = deps.groups.get(args.group_id);
    assertPublisher(group, by);
    const cardType = inferCardType(args);
    const plan = planCardSource(cardType, args);
    return deps.groupLocks.run(args.group_id, async () => {
      const source = await resolveSource(deps, group, plan, args.title?.trim() || cardType);
      const before = readPresentationFile(layout, args.group_id);
      const snapshot = readPresentation(layout, args.group_id);
      const slotId = targetSlot(snapshot, args.slot);
      const replaced = snapshot.slots.some((s) => s.slot_id === slotId && s.card);
      const now = utcNowIso();
      const card = buildCard({ slot_id: slotId, card_type: cardType, by, now, args, source });
      const next = withPublished(snapshot, card, now);
      const data = { slot_id: slotId, title: card.title, card_type: card.card_type, source_label: card.source_label, source_ref: card.source_ref, summary: card.summary };
      const event = await commit(args.group_id, before, () => writePresentation(layout, args.group_id, next), 'presentation.publish', by, data);
      return { group_id: args.group_id, slot_id: slotId, card, presentation: next, replaced, event: event as never, event_id: event.id };
    });
  });

  router.register('presentation_clear', async (args) => {
    const by = principalOf(args.by);
    const group = deps.groups.get(args.group_id);
    assertPublisher(group, by);
    const requested = args.all === true || !args.slot ? [...PRESENTATION_SLOT_IDS] : [args.slot];
    return deps.groupLocks.run(args.group_id, async () => {
      const before = readPresentationFile(layout, args.group_id);
      const { snapshot, cleared } = withCleared(readPresentation(layout, args.group_id), requested, utcNowIso());
      const slotId = cleared.length === 1 ? cleared[0]! : '';
      const data = { slot_id: slotId, cleared_all: requested.length === PRESENTATION_SLOT_IDS.length, cleared_slots: cleared };
      const event = await commit(args.group_id, before, () => writePresentation(layout, args.group_id, snapshot), 'presentation.clear', by, data);
      return { group_id: args.group_id, slot_id: slotId, cleared_slots: cleared, presentation: snapshot, event: event as never, event_id: event.id };
    });
  });
}
