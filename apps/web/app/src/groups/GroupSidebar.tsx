import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import type { GroupSummary } from '../api/types';
import { useGlobalEvents } from '../api/use-event-source';
import { GroupControls } from './GroupControls';
import { Button } from '../ui/Button';

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

  useGlobalEvents((e) => {
    if (e.kind.startsWith('group.')) reload();
  });

  return (
    <section className="groups" aria-label="Groups">
      <CreateGroupForm
        onCreated={(gid) => {
          reload();
          onSelect(gid);
        }}
      />
      {error && <p className="form-error">{error}</p>}
      {groups === null ? (
        <p className="muted pad">Loading…</p>
      ) : groups.length === 0 ? (
        <p className="muted pad">No groups yet.</p>
      ) : (
        <ul className="group-list">
          {groups.map((g) => (
            <li key={g.group_id}>
              <button className="group-item" aria-current={g.group_id === selected ? 'true' : undefined} onClick={() => onSelect(g.group_id)} title={g.group_id}>
                <span className="group-title">{g.title || g.group_id}</span>
                <span className="state-badge" data-state={g.running ? g.state : 'stopped'}>
                  {g.running ? g.state : 'stopped'}
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
      <input aria-label="New group title" placeholder="New group title" value={title} onChange={(e) => setTitle(e.target.value)} />
      <Button type="submit" variant="primary" disabled={busy}>
        Create
      </Button>
      {error && <p className="form-error">{error}</p>}
    </form>
  );
}

