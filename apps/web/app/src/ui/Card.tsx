import type { HTMLAttributes, ReactNode } from 'react';

/** A surface with an optional heading; `as` keeps the landmark the content needs. */
export function Card({ title, actions, className, children, as: Tag = 'section', ...rest }: HTMLAttributes<HTMLElement> & { title?: ReactNode; actions?: ReactNode; as?: 'section' | 'div' | 'article' }) {
  return (
    <Tag className={['ui-card', className].filter(Boolean).join(' ')} {...rest}>
      {(title || actions) && (
        <header className="ui-card-head">
          {title && <h2 className="ui-card-title">{title}</h2>}
          {actions && <div className="ui-card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </Tag>
  );
}
