import { useT } from '../i18n/I18nProvider';
import { CHAT_FILTERS, type ChatFilter } from './filters';

/** All / from user / needs reply / unread, as one radio group. */
export function ChatFilters({ value, onChange }: { value: ChatFilter; onChange: (f: ChatFilter) => void }) {
  const t = useT();
  return (
    <div className="chat-filters" role="radiogroup" aria-label={t('chat.show')}>
      {CHAT_FILTERS.map((f) => (
        <button key={f} type="button" role="radio" aria-checked={value === f} title={t(`chat.filterHint.${f}`)} onClick={() => onChange(f)}>
          {t(`chat.filter.${f}`)}
        </button>
      ))}
    </div>
  );
}
