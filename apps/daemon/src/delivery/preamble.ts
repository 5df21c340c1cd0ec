import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { effectiveRole, foremanOf, getPreamble, isVisibleActor, type GroupDoc, type HomeLayout } from '@cccc/groups';
import { buildSystemPrompt, type TerminalSession } from '@cccc/pty-runtime';

/** "<pid>:<start_us>": one PTY session, as `state/preamble_sent.json` records it. */
export function sessionMark(session: TerminalSession): string {
  return `${session.pid}:${session.startedAt * 1000}`;
}

/**
 * `groups/<gid>/state/preamble_sent.json {aid: "<pid>:<start_us>"}`: which session already got
 * the preamble, so it goes once per PTY session (and again after a restart, never twice before).
 */
export class PreambleLedger {
  constructor(private readonly layout: HomeLayout) {}

  private path(groupId: string): string {
    return join(this.layout.groupDir(groupId), 'state', 'preamble_sent.json');
  }

  private read(groupId: string): Record<string, string> {
    try {
      return JSON.parse(readFileSync(this.path(groupId), 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  private write(groupId: string, doc: Record<string, string>): void {
    const path = this.path(groupId);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify(doc) + '\n');
    renameSync(`${path}.tmp`, path);
  }

  sentTo(groupId: string, actorId: string, session: TerminalSession): boolean {
    return this.read(groupId)[actorId] === sessionMark(session);
  }

  markSent(groupId: string, actorId: string, session: TerminalSession): void {
    this.write(groupId, { ...this.read(groupId), [actorId]: sessionMark(session) });
  }

  /** Cleared at each start. */
  clear(groupId: string, actorId: string): void {
    const doc = this.read(groupId);
    if (!(actorId in doc)) return;
    delete doc[actorId];
    this.write(groupId, doc);
  }
}

/** The built-in system prompt for this actor plus the group's CCCC_PREAMBLE.md override. */
export function preambleText(layout: HomeLayout, group: GroupDoc, actorId: string): string {
  const actor = group.actors.find((a) => a.id === actorId);
  const visible = group.actors.filter(isVisibleActor);
  const active = group.scopes.find((s) => s.scope_key === group.active_scope_key);
  const preamble = getPreamble(layout, group.group_id);
  const foreman = foremanOf(group.actors);
  return buildSystemPrompt({
    actorId,
    role: effectiveRole(group.actors, actorId) ?? 'peer',
    groupTitle: group.title,
    groupId: group.group_id,
    runtime: actor?.runtime ?? 'custom',
    runner: 'pty',
    team: visible.map((a) => ({ id: a.id, role: effectiveRole(group.actors, a.id) ?? 'peer', title: a.title, runtime: a.runtime })),
    ...(foreman ? { foreman: foreman.id } : {}),
    scopes: group.scopes.map((s) => ({ label: s.label, path: s.url, active: s.scope_key === group.active_scope_key })),
    projectMdPath: active?.url && existsSync(join(active.url, 'PROJECT.md')) ? join(active.url, 'PROJECT.md') : null,
    ...(preamble.overridden ? { preambleOverride: preamble.content } : {}),
  });
}
