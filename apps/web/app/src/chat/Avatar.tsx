import type { CSSProperties } from 'react';
import type { Sender } from './sender';

/** The sender's round avatar: initials on the sender's colour, the runtime under it. */
export function Avatar({ sender }: { sender: Sender }) {
  return (
    <span className="avatar" data-user={sender.isUser || undefined} style={{ '--hue': sender.hue } as CSSProperties} aria-hidden="true">
      {sender.initials}
    </span>
  );
}
