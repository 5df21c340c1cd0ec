import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<Id extends string = string> {
  readonly id: Id;
  readonly label: ReactNode;
}

/**
 * An ARIA tab list (WAI-ARIA "tabs" pattern): arrow keys, Home and End move between tabs and
 * select them; only the selected tab is in the Tab order. The caller renders the panel with
 * `tabPanelProps` so each tab and its panel name each other.
 */
export function Tabs<Id extends string>({ label, items, selected, onSelect, idPrefix }: { label: string; items: readonly TabItem<Id>[]; selected: Id; onSelect: (id: Id) => void; idPrefix: string }) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const move = (e: KeyboardEvent, index: number) => {
    const last = items.length - 1;
    const next = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? (index === last ? 0 : index + 1) : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? (index === 0 ? last : index - 1) : e.key === 'Home' ? 0 : e.key === 'End' ? last : -1;
    if (next < 0) return;
    e.preventDefault();
    onSelect(items[next]!.id);
    refs.current[next]?.focus();
  };
  return (
    <div className="ui-tabs" role="tablist" aria-label={label}>
      {items.map((item, i) => (
        <button
          key={item.id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${item.id}`}
          aria-selected={item.id === selected}
          aria-controls={`${idPrefix}-panel-${item.id}`}
          tabIndex={item.id === selected ? 0 : -1}
          className="ui-tab"
          onClick={() => onSelect(item.id)}
          onKeyDown={(e) => move(e, i)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

export function tabPanelProps(idPrefix: string, id: string) {
  return { role: 'tabpanel', id: `${idPrefix}-panel-${id}`, 'aria-labelledby': `${idPrefix}-tab-${id}`, tabIndex: 0 } as const;
}
