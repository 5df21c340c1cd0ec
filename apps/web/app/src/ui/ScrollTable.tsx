import type { ReactNode } from 'react';

/**
 * A data table with a header row, inside a box that scrolls sideways: on a phone a wide table
 * scrolls within its pane instead of widening the page (and clipping its last columns).
 * `children` are the body rows.
 */
export function ScrollTable({ className, label, columns, children }: { className: string; label?: string; columns: readonly ReactNode[]; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className={className} aria-label={label}>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i}>{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
