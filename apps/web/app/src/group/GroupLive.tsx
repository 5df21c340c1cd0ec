import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ActorListEntry } from '../api/types';
import type { ActivityState } from '../activity/activity-store';
import { useRuntimeActivity } from '../activity/use-runtime-activity';
import type { ActorExits } from '../actors/actor-exits';
import { useActors } from '../actors/use-actors';
import { useActorExits } from './use-actor-exits';

/**
 * What several views of one group follow live, owned once per group: the actor list (working
 * state, start problems), the runtime activity and actors' own exits. The chat, the actors panel
 * and the terminal tab read the same state, and the page holds one activity stream per group
 * (a browser allows six connections per host).
 */
export interface GroupLive {
  readonly groupId: string;
  readonly actors: ActorListEntry[] | null;
  readonly actorsError: string | null;
  readonly refreshActors: () => void;
  readonly activity: { readonly state: ActivityState; readonly now: number; readonly error: string | null };
  readonly exits: ActorExits;
}

const GroupLiveContext = createContext<GroupLive | null>(null);

export function GroupLiveProvider({ groupId, children }: { groupId: string; children: ReactNode }) {
  const { actors, error, refresh } = useActors(groupId);
  const activity = useRuntimeActivity(groupId);
  const exits = useActorExits(groupId);
  const value = useMemo<GroupLive>(
    () => ({ groupId, actors, actorsError: error, refreshActors: refresh, activity, exits }),
    [groupId, actors, error, refresh, activity, exits],
  );
  return <GroupLiveContext.Provider value={value}>{children}</GroupLiveContext.Provider>;
}

export function useGroupLive(): GroupLive {
  const live = useContext(GroupLiveContext);
  if (!live) throw new Error('useGroupLive outside GroupLiveProvider');
  return live;
}
