import type { ActorListEntry } from '../api/types';

// Who wrote a message, as the bubble shows it: name, avatar (initials on a colour derived from
// the id, so an agent keeps its colour), runtime and the foreman marker.

export interface Sender {
  readonly id: string;
  readonly name: string;
  readonly initials: string;
  /** Hue 0-359 of the avatar. */
  readonly hue: number;
  readonly runtime: string | null;
  readonly foreman: boolean;
  readonly isUser: boolean;
}

function hueOf(id: string): number {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.codePointAt(0)!) % 360;
  return h;
}

function initialsOf(name: string): string {
  const words = name.split(/[\s_\-.]+/).filter(Boolean);
  const letters = words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? name).slice(0, 2);
  return letters.toUpperCase();
}

/** `by` of the event, the actor (if still in the group) and the snapshot the message carries. */
export function senderOf(by: string, actor: ActorListEntry | undefined, snapshot: { title: string | null; runtime: string | null }): Sender {
  if (by === 'user') return { id: by, name: 'You', initials: 'U', hue: 210, runtime: null, foreman: false, isUser: true };
  const name = actor?.title || snapshot.title || by;
  return {
    id: by,
    name,
    initials: initialsOf(name),
    hue: hueOf(by),
    runtime: actor?.runtime ?? snapshot.runtime,
    foreman: actor?.role === 'foreman',
    isUser: false,
  };
}
