import type { HTMLAttributes, ReactNode } from 'react';

export type ChipTone = 'neutral' | 'info' | 'ok' | 'warn' | 'bad';

/** A small rounded label (state, count, tag). Toggle chips are Buttons with aria-pressed. */
export function Chip({ tone = 'neutral', className, children, ...rest }: HTMLAttributes<HTMLSpanElement> & { tone?: ChipTone; children: ReactNode }) {
  return (
    <span className={['ui-chip', className].filter(Boolean).join(' ')} data-tone={tone} {...rest}>
      {children}
    </span>
  );
}
