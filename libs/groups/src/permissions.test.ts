import { describe, expect, it } from 'vitest';
import { IpcError } from '@cccc/ipc-protocol';
import { buildActor } from './actors.js';
import { checkPermission, decidePermission, isStrictForemanClone, PermissionActions, type PermissionAction, type PermissionContext } from './permissions.js';

const now = '2026-01-01T00:00:00.000000Z';
const foreman = buildActor({ actor_id: 'lead', runtime: 'codex', command: ['codex', '--x'] }, [], now);
const peer1 = buildActor({ actor_id: 'peer1', runtime: 'claude' }, [foreman], now);
const peer2 = buildActor({ actor_id: 'peer2', runtime: 'claude' }, [foreman, peer1], now);
const actors = [foreman, peer1, peer2];

type Row = [string, PermissionAction, PermissionContext, boolean];
const ctx = (extra: PermissionContext = {}): PermissionContext => ({ actors, ...extra });

const rows: Row[] = [
  // user (and empty by) may do everything
  ...PermissionActions.map((a): Row => ['user', a, ctx(), true]),
  ...PermissionActions.map((a): Row => ['', a, ctx(), true]),
  // group administration: foreman yes, peer no
  ...(['group.update', 'group.settings', 'group.detach_scope', 'group.delete', 'group.set_state', 'group.start', 'group.stop', 'group.attach', 'group.use', 'group.preamble_write', 'actor.notes_write', 'debug.read', 'context.brief_update'] as const).flatMap(
    (a): Row[] => [
      ['lead', a, ctx(), true],
      ['peer1', a, ctx(), false],
    ],
  ),
  // user-only actions
  ...(['group.create', 'actor.update', 'actor.env_private', 'profile.write', 'profile.secret', 'settings.global'] as const).flatMap((a): Row[] => [
    ['lead', a, ctx({ targetActorId: 'lead' }), false],
    ['peer1', a, ctx({ targetActorId: 'peer1' }), false],
  ]),
  // actor.add: foreman only as a strict clone
  ['lead', 'actor.add', ctx({ isForemanClone: true }), true],
  ['lead', 'actor.add', ctx({ isForemanClone: false }), false],
  ['peer1', 'actor.add', ctx({ isForemanClone: true }), false],
  // start: foreman any, peer none
  ['lead', 'actor.start', ctx({ targetActorId: 'peer1' }), true],
  ['peer1', 'actor.start', ctx({ targetActorId: 'peer1' }), false],
  // stop: foreman any, peer self
  ['lead', 'actor.stop', ctx({ targetActorId: 'peer2' }), true],
  ['peer1', 'actor.stop', ctx({ targetActorId: 'peer1' }), true],
  ['peer1', 'actor.stop', ctx({ targetActorId: 'peer2' }), false],
  // restart: anyone (the reference's code, not its doc table)
  ['peer1', 'actor.restart', ctx({ targetActorId: 'peer2' }), true],
  // remove: foreman self/peers, peer self
  ['lead', 'actor.remove', ctx({ targetActorId: 'peer2' }), true],
  ['lead', 'actor.remove', ctx({ targetActorId: 'lead' }), true],
  ['peer1', 'actor.remove', ctx({ targetActorId: 'peer1' }), true],
  ['peer1', 'actor.remove', ctx({ targetActorId: 'lead' }), false],
  ['peer1', 'actor.remove', ctx({ targetActorId: 'peer2' }), false],
  // inbox/history/help/notes views: foreman any, peer self
  ...(['inbox.read', 'history.read', 'group.help_read', 'actor.notes_read'] as const).flatMap((a): Row[] => [
    ['lead', a, ctx({ targetActorId: 'peer1' }), true],
    ['peer1', a, ctx({ targetActorId: 'peer1' }), true],
    ['peer1', a, ctx({ targetActorId: 'peer2' }), false],
    ['peer1', a, ctx(), false],
  ]),
  // mail.read and agent_state: self only
  ['peer1', 'mail.mark_read', ctx({ targetActorId: 'peer1' }), true],
  ['lead', 'mail.mark_read', ctx({ targetActorId: 'peer1' }), false],
  ['lead', 'context.agent_state', ctx({ targetActorId: 'lead' }), true],
  ['lead', 'context.agent_state', ctx({ targetActorId: 'peer1' }), false],
  // cancel / deliver: source sender only
  ['peer1', 'message.cancel', ctx({ sourceSenderId: 'peer1' }), true],
  ['lead', 'message.cancel', ctx({ sourceSenderId: 'peer1' }), false],
  ['peer2', 'message.deliver', ctx({ sourceSenderId: 'peer1' }), false],
  // any member
  ['peer2', 'message.send', ctx(), true],
  ['peer2', 'group.read', ctx(), true],
  ['peer2', 'actor.list', ctx(), true],
  ['peer2', 'context.notes', ctx(), true],
  ['peer2', 'profile.read', {}, true],
  // non-members are denied
  ['stranger', 'message.send', ctx(), false],
  ['stranger', 'group.read', ctx(), false],
  ['lead', 'group.update', {}, false],
  // transcript visibility
  ['peer1', 'actor.transcript_read', ctx({ targetActorId: 'peer1', transcriptVisibility: 'off' }), true],
  ['lead', 'actor.transcript_read', ctx({ targetActorId: 'peer1' }), true],
  ['peer1', 'actor.transcript_read', ctx({ targetActorId: 'peer2' }), false],
  ['peer1', 'actor.transcript_read', ctx({ targetActorId: 'peer2', transcriptVisibility: 'all' }), true],
  ['lead', 'actor.transcript_read', ctx({ targetActorId: 'peer1', transcriptVisibility: 'off' }), false],
  // tasks
  ['peer1', 'context.task', ctx({ taskAssignee: 'peer1' }), true],
  ['peer2', 'context.task', ctx({ taskHandoffTo: 'peer2' }), true],
  ['peer2', 'context.task', ctx({ taskAssignee: 'peer1' }), false],
  ['lead', 'context.task', ctx({ taskAssignee: 'peer1' }), true],
];

describe('decidePermission', () => {
  it.each(rows)('%s %s %j → %s', (by, action, context, allowed) => {
    expect(decidePermission(by, action, context).allowed).toBe(allowed);
  });
});

describe('checkPermission', () => {
  it('returns the role or throws permission_denied with details', () => {
    expect(checkPermission('user', 'group.delete')).toBe('user');
    expect(checkPermission('lead', 'group.delete', { actors })).toBe('foreman');
    try {
      checkPermission('peer1', 'group.delete', { actors });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(IpcError);
      expect((err as IpcError).code).toBe('permission_denied');
      expect((err as IpcError).details).toMatchObject({ action: 'group.delete', by: 'peer1' });
    }
  });

  it('recognises a strict foreman clone', () => {
    const clone = buildActor({ actor_id: 'lead2', runtime: 'codex', command: ['codex', '--x'] }, actors, now);
    const other = buildActor({ actor_id: 'lead3', runtime: 'codex', command: ['codex'] }, actors, now);
    expect(isStrictForemanClone(foreman, clone)).toBe(true);
    expect(isStrictForemanClone(foreman, other)).toBe(false);
  });
});
