import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { effectiveRole, findActor } from './actors.js';
import { BUILTIN_HELP, BUILTIN_PREAMBLE, CANONICAL_DELIVERY_HEADING } from './builtin-prompts.js';
import { groupError } from './errors.js';
import { loadGroup } from './group-store.js';
import type { HomeLayout } from './home-layout.js';
import { parseSections, renderSections, type MarkdownSection } from './markdown-sections.js';
import { checkPermission } from './permissions.js';
import type { GroupDoc } from './schemas/group.js';

export const MAX_PREAMBLE_BYTES = 512 * 1024;

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export interface PreambleView {
  group_id: string;
  source: 'builtin' | 'home';
  filename: 'CCCC_PREAMBLE.md';
  overridden: boolean;
  content: string;
}

/** `group_preamble_get`: the group override when non-empty, else the built-in body. */
export function getPreamble(layout: HomeLayout, groupId: string): PreambleView {
  loadGroup(layout, groupId);
  const override = readOptional(layout.preamblePath(groupId));
  const overridden = override !== undefined && override.trim() !== '';
  return { group_id: groupId, source: overridden ? 'home' : 'builtin', filename: 'CCCC_PREAMBLE.md', overridden, content: overridden ? override! : BUILTIN_PREAMBLE };
}

/** `group_preamble_set` (user or foreman): non-empty, ≤ 512 KiB UTF-8; unchanged content is not rewritten. */
export function setPreamble(layout: HomeLayout, by: string | undefined, groupId: string, content: string): PreambleView & { changed: boolean } {
  const group = loadGroup(layout, groupId);
  checkPermission(by, 'group.preamble_write', { actors: group.actors });
  if (typeof content !== 'string' || content.trim() === '') {
    throw groupError('invalid_request', 'preamble content must not be empty; use group_preamble_reset to restore the built-in', { field: 'content' });
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_PREAMBLE_BYTES) {
    throw groupError('preamble_too_large', `preamble is ${bytes} bytes; the limit is ${MAX_PREAMBLE_BYTES}`, { bytes, limit: MAX_PREAMBLE_BYTES });
  }
  const changed = readOptional(layout.preamblePath(groupId)) !== content;
  if (changed) writeFileAtomicSync(layout.preamblePath(groupId), content);
  return { ...getPreamble(layout, groupId), changed };
}

/** `group_preamble_reset` (user or foreman) with `confirm: "preamble"`. */
export function resetPreamble(layout: HomeLayout, by: string | undefined, groupId: string, confirm: string): PreambleView & { changed: boolean } {
  const group = loadGroup(layout, groupId);
  checkPermission(by, 'group.preamble_write', { actors: group.actors });
  if (confirm !== 'preamble') throw groupError('confirmation_required', 'confirm must be "preamble"', { expected: 'preamble' });
  const changed = readOptional(layout.preamblePath(groupId)) !== undefined;
  rmSync(layout.preamblePath(groupId), { force: true });
  return { ...getPreamble(layout, groupId), changed };
}

const ROLE_TAG = /^@role:\s*(\S+)\s*$/i;
const ACTOR_TAG = /^@actor:\s*(.+?)\s*$/i;
const VOICE_TAG = /^@voice_secretary\b/i;

/** Pure: may `actor` (or the unfiltered user view when undefined) see this help section? */
export function sectionVisibleTo(section: MarkdownSection, viewer: { id: string; role?: string; internalKind?: string } | undefined): boolean {
  if (!viewer) return true;
  const role = ROLE_TAG.exec(section.heading);
  if (role) return role[1]!.toLowerCase() === viewer.role;
  const actor = ACTOR_TAG.exec(section.heading);
  if (actor) return actor[1] === viewer.id;
  if (VOICE_TAG.test(section.heading)) return viewer.internalKind === 'voice_secretary';
  if (section.heading.startsWith('@')) return false;
  return true;
}

/** Pure: built-in help + the group's overlay (its canonical-delivery section ignored), filtered for a viewer. */
export function composeHelp(overlay: string | undefined, viewer?: { id: string; role?: string; internalKind?: string }): string {
  const base = parseSections(BUILTIN_HELP);
  const sections = [...base.sections];
  const lead = [...base.lead];
  if (overlay !== undefined) {
    const extra = parseSections(overlay);
    const extraLead = extra.lead.join('\n').trim();
    if (extraLead) sections.push({ heading: 'Group notes', lines: ['', extraLead, ''] });
    for (const section of extra.sections) {
      if (section.heading.toLowerCase() === CANONICAL_DELIVERY_HEADING.toLowerCase()) continue;
      sections.push(section);
    }
  }
  return renderSections({ lead, sections: sections.filter((s) => sectionVisibleTo(s, viewer)) });
}

function viewerFor(group: GroupDoc, actorId: string) {
  const actor = findActor(group.actors, actorId);
  return { id: actor.id, role: effectiveRole(group.actors, actor.id), internalKind: actor.internal_kind ?? undefined };
}

/** `group_help_get`: user/foreman may view any actor; a peer only itself. */
export function getHelp(layout: HomeLayout, by: string | undefined, groupId: string, actorId?: string) {
  const group = loadGroup(layout, groupId);
  checkPermission(by, 'group.help_read', { actors: group.actors, targetActorId: actorId });
  const overlay = readOptional(layout.helpPath(groupId));
  const viewer = actorId ? viewerFor(group, actorId) : undefined;
  return {
    group_id: groupId,
    actor_id: actorId ?? null,
    source: overlay !== undefined ? ('home' as const) : ('builtin' as const),
    source_path: layout.helpPath(groupId),
    filename: 'CCCC_HELP.md' as const,
    overridden: overlay !== undefined,
    markdown: composeHelp(overlay, viewer),
  };
}

function noteSections(text: string): Array<{ actor_id: string; section: MarkdownSection }> {
  return parseSections(text)
    .sections.map((section) => ({ match: ACTOR_TAG.exec(section.heading), section }))
    .filter((x) => x.match)
    .map((x) => ({ actor_id: x.match![1]!, section: x.section }));
}

function noteText(section: MarkdownSection): string {
  return section.lines.join('\n').trim();
}

/** `actor_notes_get`: one actor's note, or (user/foreman, no target) every note. */
export function getActorNotes(layout: HomeLayout, by: string | undefined, groupId: string, targetActorId?: string) {
  const group = loadGroup(layout, groupId);
  checkPermission(by, 'actor.notes_read', { actors: group.actors, targetActorId });
  const text = readOptional(layout.helpPath(groupId));
  const source = text !== undefined ? ('home' as const) : ('builtin' as const);
  const notes = noteSections(text ?? '');
  const path = layout.helpPath(groupId);
  if (targetActorId === undefined) {
    return { actor_notes: notes.map((n) => ({ actor_id: n.actor_id, content: noteText(n.section) })), source, path };
  }
  findActor(group.actors, targetActorId);
  const note = notes.find((n) => n.actor_id === targetActorId);
  return { target_actor_id: targetActorId, content: note ? noteText(note.section) : '', source, path };
}

/** Pure: replace (or append, or with `undefined` remove) one actor's block, keeping everything else byte for byte. */
export function withActorNote(text: string, actorId: string, content: string | undefined): string {
  const doc = parseSections(text);
  const index = doc.sections.findIndex((s) => ACTOR_TAG.exec(s.heading)?.[1] === actorId);
  if (content === undefined) {
    if (index >= 0) doc.sections.splice(index, 1);
    return renderSections(doc);
  }
  const block: MarkdownSection = { heading: `@actor: ${actorId}`, lines: ['', content.trim(), ''] };
  if (index >= 0) doc.sections[index] = block;
  else {
    const last = doc.sections.at(-1)?.lines ?? doc.lead;
    if (last.length > 0 && last.at(-1) !== '') last.push('');
    doc.sections.push(block);
  }
  return renderSections(doc);
}

function writeNote(layout: HomeLayout, by: string | undefined, groupId: string, targetActorId: string, content: string | undefined) {
  const group = loadGroup(layout, groupId);
  checkPermission(by, 'actor.notes_write', { actors: group.actors, targetActorId });
  findActor(group.actors, targetActorId);
  if (content !== undefined && typeof content !== 'string') throw groupError('invalid_request', 'content must be a string', { field: 'content' });
  const before = readOptional(layout.helpPath(groupId));
  const after = withActorNote(before ?? '', targetActorId, content);
  const changed = after !== (before ?? '');
  if (changed) writeFileAtomicSync(layout.helpPath(groupId), after);
  return { ...(getActorNotes(layout, by, groupId, targetActorId) as { target_actor_id: string; content: string; source: 'builtin' | 'home'; path: string }), changed };
}

/** `actor_notes_set` (user or foreman). */
export function setActorNote(layout: HomeLayout, by: string | undefined, groupId: string, targetActorId: string, content: string) {
  return writeNote(layout, by, groupId, targetActorId, content);
}

/** `actor_notes_clear` (user or foreman). */
export function clearActorNote(layout: HomeLayout, by: string | undefined, groupId: string, targetActorId: string) {
  return writeNote(layout, by, groupId, targetActorId, undefined);
}
