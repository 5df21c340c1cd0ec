import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import type { GroupSummary } from '../api/types';
import { useGlobalEvents } from '../api/use-event-source';
import { GroupControls } from './GroupControls';
import { Button } from '../ui/Button';
import { useT } from '../i18n/I18nProvider';

/**
 * Groups list, "new group" form, and the selected group's controls. The list follows the global
 * event stream: any group.* event (create, start, stop, state, attach, ...) reloads it.
 */
export function GroupSidebar({ selected, onSelect }: { selected: string | null; onSelect: (groupId: string | null) => void }) {
  const [groups, setGroups] = useState<GroupSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    let live = true;
    api.groups().then(
      (r) => {
        if (!live) return;
        setGroups(r.groups);
        setError(null);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [tick]);

  const t = useT();
  useGlobalEvents((e) => {
    if (e.kind.startsWith('group.')) reload();
  });

  return (
    <section className="groups" aria-label={t('app.groups')}>
      <CreateGroupForm
        onCreated={(gid) => {
          reload();
          onSelect(gid);
        }}
      />
      {error && <p className="form-error">{error}</p>}
      {groups === null ? (
        <p className="muted pad">{t('app.loading')}</p>
      ) : groups.length === 0 ? (
        <p className="muted pad">{t('groups.none')}</p>
      ) : (
        <ul className="group-list">
          {groups.map((g) => (
            <li key={g.group_id}>
              <button className="group-item" aria-current={g.group_id === selected ? 'true' : undefined} onClick={() => onSelect(g.group_id)} title={g.group_id}>
                <span className="group-title">{g.title || g.group_id}</span>
                <span className="state-badge" data-state={g.running ? g.state : 'stopped'}>
                  {t(`groups.state.${g.running ? g.state : 'stopped'}`)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {selected && <GroupControls key={`${selected}/${tick}`} groupId={selected} onChanged={reload} />}
    </section>
  );
}

function CreateGroupForm({ onCreated }: { onCreated: (groupId: string) => void }) {
  const t = useT();
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="create-group"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        api.group_create({ title: title.trim() || undefined }).then(
          (r) => {
            setBusy(false);
            setTitle('');
            setError(null);
            onCreated(r.group_id);
          },
          (err: Error) => {
            setBusy(false);
            setError(err.message);
          },
        );
      }}
    >
      <input aria-label={t('groups.newTitle')} placeholder={t('groups.newTitle')} value={title} onChange={(e) => setTitle(e.target.value)} />
      <Button type="submit" variant="primary" disabled={busy}>
        {t('groups.create')}
      </Button>
      {error && <p className="form-error">{error}</p>}
    </form>
  );
}

