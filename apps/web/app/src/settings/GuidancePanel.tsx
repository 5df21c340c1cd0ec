import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import { useGroupLive } from '../group/GroupLive';
import { useT } from '../i18n/I18nProvider';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Chip } from '../ui/Chip';
import { useToast } from '../ui/Toast';

const message = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

/** Settings › Guidance: what the agents are told — the startup preamble, the help, actor notes. */
export function GuidancePanel({ groupId }: { groupId: string }) {
  return (
    <div className="settings-stack">
      <PreambleCard groupId={groupId} />
      <ActorNotesCard groupId={groupId} />
      <HelpCard groupId={groupId} />
    </div>
  );
}

function PreambleCard({ groupId }: { groupId: string }) {
  const t = useT();
  const toast = useToast();
  const [state, setState] = useState<{ content: string; overridden: boolean } | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    api.group_preamble(groupId).then(
      (r) => {
        if (!live) return;
        setState({ content: r.content, overridden: r.overridden });
        setDraft(r.content);
      },
      (e: Error) => live && setError(message(e)),
    );
    return () => {
      live = false;
    };
  }, [groupId]);
  const apply = (p: Promise<{ content: string; overridden: boolean }>) => {
    setBusy(true);
    setError(null);
    p.then(
      (r) => {
        setBusy(false);
        setState({ content: r.content, overridden: r.overridden });
        setDraft(r.content);
        toast(t('settings.saved'), 'ok');
      },
      (e: Error) => {
        setBusy(false);
        setError(message(e));
      },
    );
  };
  return (
    <Card title={t('guidance.preamble')} aria-label={t('guidance.preamble')} actions={state && <Chip tone={state.overridden ? 'info' : 'neutral'}>{state.overridden ? t('guidance.preamble.override') : t('guidance.preamble.builtin')}</Chip>}>
      <small className="muted">{t('guidance.preamble.hint')}</small>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {state && (
        <>
          <textarea className="guidance-text" aria-label={t('guidance.preamble')} value={draft} rows={10} onChange={(e) => setDraft(e.target.value)} />
          <div className="row">
            <Button variant="primary" disabled={busy || draft === state.content || !draft.trim()} onClick={() => apply(api.group_preamble_set(groupId, { content: draft }))}>
              {t('guidance.preamble.save')}
            </Button>
            <Button disabled={busy || !state.overridden} onClick={() => apply(api.group_preamble_reset(groupId, { confirm: 'preamble' }))}>
              {t('guidance.preamble.reset')}
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}

function ActorNotesCard({ groupId }: { groupId: string }) {
  const t = useT();
  const toast = useToast();
  const { actors } = useGroupLive();
  const ids = (actors ?? []).map((a) => a.id);
  const [target, setTarget] = useState('');
  const actorId = ids.includes(target) ? target : (ids[0] ?? '');
  const [saved, setSaved] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!actorId) return;
    let live = true;
    setSaved(null);
    api.actor_notes(groupId, { target_actor_id: actorId }).then(
      (r) => {
        if (!live) return;
        const content = 'content' in r ? r.content : '';
        setSaved(content);
        setDraft(content);
      },
      (e: Error) => live && setError(message(e)),
    );
    return () => {
      live = false;
    };
  }, [groupId, actorId]);
  const apply = (p: Promise<{ content: string }>) => {
    setBusy(true);
    setError(null);
    p.then(
      (r) => {
        setBusy(false);
        setSaved(r.content);
        setDraft(r.content);
        toast(t('settings.saved'), 'ok');
      },
      (e: Error) => {
        setBusy(false);
        setError(message(e));
      },
    );
  };
  return (
    <Card title={t('guidance.notes')} aria-label={t('guidance.notes')}>
      <small className="muted">{t('guidance.notes.hint')}</small>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {ids.length === 0 ? (
        <p className="muted">{t('guidance.notes.none')}</p>
      ) : (
        <>
          <select aria-label={t('guidance.notes.actor')} value={actorId} onChange={(e) => setTarget(e.target.value)}>
            {ids.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
          <textarea className="guidance-text" aria-label={t('guidance.notes.text')} rows={5} value={draft} disabled={saved === null} onChange={(e) => setDraft(e.target.value)} />
          <div className="row">
            <Button variant="primary" disabled={busy || saved === null || draft === saved || !draft.trim()} onClick={() => apply(api.actor_notes_set(groupId, actorId, { content: draft }))}>
              {t('guidance.notes.save')}
            </Button>
            <Button disabled={busy || !saved} onClick={() => apply(api.actor_notes_clear(groupId, actorId).then(() => ({ content: '' })))}>
              {t('guidance.notes.clear')}
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}

function HelpCard({ groupId }: { groupId: string }) {
  const t = useT();
  const { actors } = useGroupLive();
  const [as, setAs] = useState('');
  const [markdown, setMarkdown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.group_help(groupId, as ? { actor_id: as } : {}).then(
      (r) => live && setMarkdown(r.markdown),
      (e: Error) => live && setError(message(e)),
    );
    return () => {
      live = false;
    };
  }, [groupId, as]);
  return (
    <Card title={t('guidance.help')} aria-label={t('guidance.help')}>
      <small className="muted">{t('guidance.help.hint')}</small>
      <label className="row">
        <span>{t('guidance.help.as')}</span>
        <select aria-label={t('guidance.help.as')} value={as} onChange={(e) => setAs(e.target.value)}>
          <option value="">{t('guidance.help.everyone')}</option>
          {(actors ?? []).map((a) => (
            <option key={a.id} value={a.id}>
              {a.id}
            </option>
          ))}
        </select>
      </label>
      {error && <p className="form-error">{error}</p>}
      {markdown !== null && (
        <pre className="guidance-help" tabIndex={0} aria-label={t('guidance.help')}>
          {markdown}
        </pre>
      )}
    </Card>
  );
}
