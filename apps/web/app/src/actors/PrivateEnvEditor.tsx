import { useState } from 'react';
import { useT } from '../i18n/I18nProvider';

export interface PrivateEnvChange {
  readonly set: Record<string, string>;
  readonly unset: string[];
}

/**
 * Private env keys, write-only: existing keys are listed by name only (the server never returns
 * values), new values are typed into password fields and leave the browser once, on save.
 */
export function PrivateEnvEditor({ keys, change, onChange }: { keys: readonly string[]; change: PrivateEnvChange; onChange: (c: PrivateEnvChange) => void }) {
  const t = useT();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const validKey = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);
  const shown = [...new Set([...keys, ...Object.keys(change.set)])].filter((k) => !change.unset.includes(k)).sort();
  return (
    <fieldset className="env-editor">
      <legend>{t('env.title')}</legend>
      {shown.length === 0 && <p className="actor-hint">{t('env.none')}</p>}
      <ul>
        {shown.map((k) => (
          <li key={k}>
            <code>{k}</code>
            <span className="actor-hint">{k in change.set ? t('env.newOnSave') : t('env.set')}</span>
            <button
              type="button"
              aria-label={t('env.remove', { key: k })}
              onClick={() => {
                const { [k]: _dropped, ...set } = change.set;
                onChange({ set, unset: keys.includes(k) ? [...change.unset, k] : change.unset });
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="env-add">
        <input aria-label={t('env.key')} placeholder={t('env.keyPlaceholder')} value={key} onChange={(e) => setKey(e.target.value.trim())} spellCheck={false} />
        <input aria-label={t('env.value')} placeholder={t('env.valuePlaceholder')} type="password" autoComplete="new-password" value={value} onChange={(e) => setValue(e.target.value)} />
        <button
          type="button"
          disabled={!validKey}
          onClick={() => {
            onChange({ set: { ...change.set, [key]: value }, unset: change.unset.filter((k) => k !== key) });
            setKey('');
            setValue('');
          }}
        >
          {t('env.add')}
        </button>
      </div>
    </fieldset>
  );
}
