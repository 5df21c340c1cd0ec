import { useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/I18nProvider';

/** Typing pauses this long before the search runs. */
const DEBOUNCE_MS = 250;

/**
 * The search box: results follow the text as it is typed (after a short pause), Enter searches
 * at once, and an empty box returns to the conversation.
 */
export function ChatSearch({ found, onSearch }: { found: number | null; onSearch: (query: string) => void }) {
  const t = useT();
  const [query, setQuery] = useState('');
  const handler = useRef(onSearch);
  handler.current = onSearch;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => handler.current(query.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  return (
    <form
      className="chat-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(query.trim());
      }}
    >
      <input type="search" aria-label={t('chat.search')} placeholder={t('chat.search')} value={query} onChange={(e) => setQuery(e.target.value)} />
      {found !== null && (
        <button
          type="button"
          onClick={() => {
            setQuery('');
            onSearch('');
          }}
        >
          {t('chat.search.back', { found })}
        </button>
      )}
    </form>
  );
}
