import { useState } from 'react';
import { KeyRefused, sendKey, type KeyName } from '../terminal/send-keys';
import { useT } from '../i18n/I18nProvider';

const BUTTONS: ReadonlyArray<{ key: KeyName; label: string; name: string }> = [
  { key: 'interrupt', label: '^C', name: 'Ctrl-C' },
  { key: 'escape', label: 'Esc', name: 'Esc' },
  { key: 'enter', label: 'Enter', name: 'Enter' },
];

/**
 * ^C, Esc and Enter for a running agent without opening its terminal: interrupt a turn, dismiss
 * or answer a prompt (the fake and real CLIs take Enter as "yes" and Esc as "no" at a
 * permission prompt).
 */
export function ActorKeys({ groupId, actorId }: { groupId: string; actorId: string }) {
  const t = useT();
  const [note, setNote] = useState<{ text: string; bad: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const press = (key: KeyName, name: string) => {
    setBusy(true);
    setNote(null);
    sendKey(groupId, actorId, key).then(
      () => setNote({ text: `${name} sent`, bad: false }),
      (e: unknown) => setNote({ text: e instanceof KeyRefused || e instanceof Error ? e.message : String(e), bad: true }),
    ).finally(() => setBusy(false));
  };
  return (
    <div className="actor-keys" role="group" aria-label={t('keys.for', { actor: actorId })}>
      <span className="keys-label">{t('keys.label')}</span>
      {BUTTONS.map((b) => (
        <button key={b.key} type="button" className="key" disabled={busy} aria-label={t('keys.send', { key: b.name, actor: actorId })} title={t('keys.sendTitle', { key: b.name, actor: actorId })} onClick={() => press(b.key, b.name)}>
          {b.label}
        </button>
      ))}
      {note && (
        <span className={note.bad ? 'actor-error' : 'actor-hint'} role="status">
          {note.text}
        </span>
      )}
    </div>
  );
}
