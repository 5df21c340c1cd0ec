import type { ActorListEntry } from '../api/types';
import { SELECTORS } from './mentions';
import { useT } from '../i18n/I18nProvider';

interface Props {
  readonly actors: readonly ActorListEntry[];
  /** Chips the user pressed. */
  readonly selected: readonly string[];
  /** Recipients named with @ in the text (pressed, and released by editing the text). */
  readonly mentioned: readonly string[];
  /** What an empty choice means (the group default, or the sender a reply goes back to). */
  readonly fallback: string;
  readonly onToggle: (token: string) => void;
}

/** "To:" and one chip per selector (@all, @foreman, @peers) and per actor. */
export function RecipientChips({ actors, selected, mentioned, fallback, onToggle }: Props) {
  const chips = [...SELECTORS.map((s) => ({ token: s, label: s, title: selectorTitle(s) })), ...actors.map((a) => ({ token: a.id, label: a.title || a.id, title: `${a.id} · ${a.runtime}${a.role === 'foreman' ? ' · foreman' : ''}` }))];
  const t = useT();
  const none = selected.length === 0 && mentioned.length === 0;
  return (
    <div className="recipient-chips" role="group" aria-label={t('composer.sendTo')}>
      <span className="to-label">{t('composer.to')}</span>
      {chips.map((c) => {
        const inText = mentioned.includes(c.token);
        return (
          <button
            key={c.token}
            type="button"
            className="chip"
            aria-pressed={selected.includes(c.token) || inText}
            data-in-text={inText || undefined}
            title={inText ? `${c.title} (named in the text)` : c.title}
            onClick={() => !inText && onToggle(c.token)}
          >
            {c.label}
          </button>
        );
      })}
      {none && <span className="to-fallback muted">{fallback}</span>}
    </div>
  );
}

function selectorTitle(selector: string): string {
  return selector === '@all' ? 'every agent' : selector === '@foreman' ? 'the foreman (first actor)' : 'every agent but the foreman';
}
