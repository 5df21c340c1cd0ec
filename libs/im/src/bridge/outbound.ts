import type { CCCSEventV1 } from '@cccc/ipc-protocol';

export interface OutboundSettings {
  /** Forward system.notify events published with im_visibility="public". */
  readonly forwardPublicNotify: boolean;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The text an IM chat should see for a ledger event, or undefined when the event stays inside
 * the group: chat messages addressed to the user (not the user's own, which came from IM or the
 * Web), and system.notify only when published with im_visibility="public" and never when aimed
 * at one actor (§ system.notify).
 */
export function outboundText(event: CCCSEventV1, settings: OutboundSettings): string | undefined {
  const data = (event.data ?? {}) as Record<string, unknown>;
  if (event.kind === 'chat.message') {
    if (event.by === 'user') return undefined;
    const to = Array.isArray(data.to) ? data.to.map(String) : [];
    if (!to.some((r) => r === 'user' || r === '@user')) return undefined;
    const text = str(data.text);
    return text.trim() === '' ? undefined : `[${event.by}] ${text}`;
  }
  if (event.kind === 'system.notify') {
    if (!settings.forwardPublicNotify || data.im_visibility !== 'public' || data.target_actor_id) return undefined;
    const title = str(data.title);
    const message = str(data.message);
    const body = [title, message].filter((s) => s.trim() !== '').join(': ');
    return body === '' ? undefined : `[notify] ${body}`;
  }
  return undefined;
}
