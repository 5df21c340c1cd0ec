/** Group setting `terminal_transcript_visibility`. */
export type TranscriptVisibility = 'off' | 'foreman' | 'all';

export type TranscriptViewer =
  | { readonly kind: 'user' }
  | { readonly kind: 'actor'; readonly actorId: string; readonly role: 'foreman' | 'peer' };

/**
 * Who may read an actor's terminal transcript (tail, snapshot, replay, history, attach). The
 * human user always can, and an actor can always read its own terminal; other actors depend on
 * the group setting: `off` nobody, `foreman` only the foreman, `all` every actor.
 */
export function canReadTranscript(viewer: TranscriptViewer, targetActorId: string, visibility: TranscriptVisibility): boolean {
  if (viewer.kind === 'user') return true;
  if (viewer.actorId === targetActorId) return true;
  switch (visibility) {
    case 'all':
      return true;
    case 'foreman':
      return viewer.role === 'foreman';
    default:
      return false;
  }
}
