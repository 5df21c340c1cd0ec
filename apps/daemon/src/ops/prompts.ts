import { clearActorNote, getActorNotes, getHelp, getPreamble, principalOf, resetPreamble, setActorNote, setPreamble } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import { changeGroupFiles } from './group-write.js';
import type { StoreDeps } from '../kernel/store-deps.js';

export type PromptsOpsDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'>;

/**
 * §8.3 group prompt documents: the preamble override and CCCC_HELP.md (help and actor notes).
 * Prompt files are not ledger facts, so these ops append no event.
 */
export function registerPromptsOps(router: OpRouter, deps: PromptsOpsDeps): void {
  const { layout } = deps;

  router.register('group_preamble_get', (args) => getPreamble(layout, args.group_id));

  router.register('group_preamble_set', (args) =>
    changeGroupFiles(deps, args.group_id, () => setPreamble(layout, principalOf(args.by), args.group_id, args.content)),
  );

  router.register('group_preamble_reset', (args) =>
    changeGroupFiles(deps, args.group_id, () => resetPreamble(layout, principalOf(args.by), args.group_id, args.confirm)),
  );

  router.register('group_help_get', (args) => getHelp(layout, principalOf(args.by), args.group_id, args.actor_id));

  router.register('actor_notes_get', (args) => getActorNotes(layout, principalOf(args.by), args.group_id, args.target_actor_id));

  router.register('actor_notes_set', (args) =>
    changeGroupFiles(deps, args.group_id, () => setActorNote(layout, principalOf(args.by), args.group_id, args.target_actor_id, args.content)),
  );

  router.register('actor_notes_clear', (args) =>
    changeGroupFiles(deps, args.group_id, () => clearActorNote(layout, principalOf(args.by), args.group_id, args.target_actor_id)),
  );
}
