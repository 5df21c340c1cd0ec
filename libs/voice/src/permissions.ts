import { voiceError, VoiceErrorCodes } from './errors.js';

export const VOICE_PRINCIPAL = 'assistant:voice_secretary';
export const VOICE_ACTOR_ID = 'voice-secretary';

/**
 * Who may change Voice Secretary state (leases, sessions, settings repair): the user (an omitted
 * `by`), the assistant principal, or the group's foreman. A peer or an unknown actor is
 * `permission_denied`. `roleOf` answers the actor's effective role in the group; the internal
 * `voice-secretary` actor counts as the assistant principal when the group has it.
 */
export function assertVoiceWriter(
  by: string | undefined,
  roleOf: (actorId: string) => 'foreman' | 'peer' | undefined,
  /** Whether `voice-secretary` is the group's internal voice secretary actor (it may act as the assistant). */
  hasVoiceActor = false,
): void {
  const who = (by ?? '').trim();
  if (who === '' || who === 'user' || who === VOICE_PRINCIPAL || (hasVoiceActor && who === VOICE_ACTOR_ID)) return;
  const role = roleOf(who);
  if (role === 'foreman') return;
  throw voiceError(VoiceErrorCodes.permissionDenied, role === 'peer' ? `permission denied: ${who}` : `unknown actor: ${who}`, { by: who });
}
