import { useT } from '../i18n/I18nProvider';
/**
 * The command as an argv list, one input per argument: argument boundaries (spaces, quotes,
 * empty arguments) are kept exactly, never re-split from a shell string.
 */
export function ArgvEditor({ argv, onChange }: { argv: string[]; onChange: (argv: string[]) => void }) {
  const t = useT();
  const set = (i: number, value: string) => onChange(argv.map((a, j) => (j === i ? value : a)));
  return (
    <fieldset className="argv-editor">
      <legend>{t('actorForm.argv')}</legend>
      {argv.map((arg, i) => (
        <div className="argv-row" key={i}>
          <input aria-label={i === 0 ? 'Command executable' : `Argument ${i}`} value={arg} onChange={(e) => set(i, e.target.value)} spellCheck={false} />
          <button type="button" aria-label={t('actorForm.removeArg', { index: i })} onClick={() => onChange(argv.filter((_, j) => j !== i))}>
            ×
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...argv, ''])}>
        {argv.length === 0 ? 'Set command' : 'Add argument'}
      </button>
    </fieldset>
  );
}
