import { CHAT_FILTERS, FILTER_HINTS, FILTER_LABELS, type ChatFilter } from './filters';

/** All / from user / needs reply / unread, as one radio group. */
export function ChatFilters({ value, onChange }: { value: ChatFilter; onChange: (f: ChatFilter) => void }) {
  return (
    <div className="chat-filters" role="radiogroup" aria-label="Show">
      {CHAT_FILTERS.map((f) => (
        <button key={f} type="button" role="radio" aria-checked={value === f} title={FILTER_HINTS[f]} onClick={() => onChange(f)}>
          {FILTER_LABELS[f]}
        </button>
      ))}
    </div>
  );
}
