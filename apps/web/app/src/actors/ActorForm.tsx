import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import { loadRuntimes, type RuntimeInfo } from '../api/runtimes';
import type { ActorListEntry, SubmitMode } from '../api/types';
import { ArgvEditor } from './ArgvEditor';
import { PrivateEnvEditor, type PrivateEnvChange } from './PrivateEnvEditor';
import { useT } from '../i18n/I18nProvider';

const sameArgv = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Add (actor = null) or edit one actor; private env values are write-only. */
export function ActorForm({ groupId, actor, onDone }: { groupId: string; actor: ActorListEntry | null; onDone: () => void }) {
  const t = useT();
  const [runtimes, setRuntimes] = useState<RuntimeInfo[] | null>(null);
  const [actorId, setActorId] = useState('');
  const [title, setTitle] = useState(actor?.title ?? '');
  const [runtime, setRuntime] = useState(actor?.runtime ?? '');
  const [command, setCommand] = useState<string[]>(actor?.command ? [...actor.command] : []);
  const [submit, setSubmit] = useState<SubmitMode>(actor?.submit ?? 'enter');
  const [envKeys, setEnvKeys] = useState<string[]>([]);
  const [env, setEnv] = useState<PrivateEnvChange>({ set: {}, unset: [] });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    loadRuntimes().then(
      (list) => {
        setRuntimes(list);
        // A new actor starts on the first installed runtime, else custom.
        if (!actor) setRuntime((r) => r || (list.find((x) => x.installed && x.command.length > 0)?.runtime ?? 'custom'));
      },
      (e: unknown) => setError(`runtimes: ${e instanceof Error ? e.message : String(e)}`),
    );
    if (actor) {
      api.actor_env_private_keys(groupId, actor.id).then(
        (r) => setEnvKeys(r.keys),
        () => undefined,
      );
    }
  }, [groupId, actor]);

  const chooseRuntime = (next: string) => {
    const prevDefault = runtimes?.find((r) => r.runtime === runtime)?.command ?? [];
    const nextDefault = runtimes?.find((r) => r.runtime === next)?.command ?? [];
    // Follow the runtime's default command unless the user typed their own.
    if (command.length === 0 || sameArgv(command, prevDefault)) setCommand([...nextDefault]);
    setRuntime(next);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setError(null);
    const argv = command.filter((a, i) => i > 0 || a.trim() !== '');
    try {
      if (!actor) {
        await api.actor_add(groupId, {
          ...(actorId.trim() ? { actor_id: actorId.trim() } : {}),
          ...(title.trim() ? { title: title.trim() } : {}),
          runtime,
          ...(argv.length > 0 ? { command: argv } : {}),
          submit,
          ...(Object.keys(env.set).length > 0 ? { env_private: env.set } : {}),
        });
      } else {
        await api.actor_update(groupId, actor.id, { patch: { title: title.trim(), runtime, command: argv, submit } });
        if (Object.keys(env.set).length > 0 || env.unset.length > 0) {
          await api.actor_env_private_update(groupId, actor.id, { set: env.set, unset: env.unset });
        }
      }
      setEnv({ set: {}, unset: [] });
      onDone();
    } catch (err) {
      setError(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    } finally {
      setSaving(false);
    }
  };

  const installed = runtimes?.filter((r) => r.installed) ?? [];
  const missing = runtimes?.filter((r) => !r.installed && r.runtime !== 'custom') ?? [];
  return (
    <form className="actor-form" onSubmit={onSubmit} aria-label={actor ? t('actorForm.edit', { actor: actor.id }) : t('actorForm.add')}>
      <h3>{actor ? t('actorForm.edit', { actor: actor.id }) : t('actorForm.add')}</h3>
      {!actor && (
        <label>
          {t('actorForm.id')}
          <input value={actorId} onChange={(e) => setActorId(e.target.value)} placeholder={t('actorForm.idAuto')} spellCheck={false} />
        </label>
      )}
      <label>
        {t('actorForm.title')}
        <input value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label>
        {t('profiles.runtime')}
        <select value={runtime} onChange={(e) => chooseRuntime(e.target.value)} disabled={!runtimes}>
          {!runtimes && <option value={runtime}>{runtime || t('app.loading')}</option>}
          <option value="custom">{t('actorForm.custom')}</option>
          {installed.length > 0 && (
            <optgroup label={t('actorForm.installed')}>
              {installed.filter((r) => r.runtime !== 'custom').map((r) => (
                <option key={r.runtime} value={r.runtime}>
                  {r.runtime}
                </option>
              ))}
            </optgroup>
          )}
          {missing.length > 0 && (
            <optgroup label={t('actorForm.missing')}>
              {missing.map((r) => (
                <option key={r.runtime} value={r.runtime}>
                  {t('actorForm.notInstalled', { runtime: r.runtime })}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      <ArgvEditor argv={command} onChange={setCommand} />
      <label>
        {t('actorForm.submit')}
        <select value={submit} onChange={(e) => setSubmit(e.target.value as SubmitMode)}>
          <option value="enter">{t('actorForm.submit.enter')}</option>
          <option value="newline">{t('actorForm.submit.newline')}</option>
          <option value="none">{t('actorForm.submit.none')}</option>
        </select>
      </label>
      <PrivateEnvEditor keys={envKeys} change={env} onChange={setEnv} />
      {error && (
        <p className="actor-error" role="alert">
          {error}
        </p>
      )}
      <div className="actor-form-actions">
        <button type="submit" disabled={saving || !runtime}>
          {actor ? t('actorForm.save') : t('actorForm.addButton')}
        </button>
        <button type="button" onClick={onDone}>
          {t('actorForm.cancel')}
        </button>
      </div>
    </form>
  );
}
