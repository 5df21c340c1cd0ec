import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { permissionLine } from './headless-permissions';

type ControlState = Awaited<ReturnType<typeof api.headless_control_state>>['state'];

/**
 * A managed actor's pending permission requests (§8.9), each with Approve / Deny: the answer
 * names the session generation it was read from, so a request of an earlier session is never
 * answered. Re-read whenever the actor's state changes (`version`).
 */
export function HeadlessPermissions({ groupId, actorId, version }: { groupId: string; actorId: string; version: string }) {
  const [state, setState] = useState<ControlState>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    api.headless_control_state(groupId, actorId).then(
      (r) => live && setState(r.state),
      () => live && setState(null),
    );
    return () => {
      live = false;
    };
  }, [groupId, actorId, version]);
  if (!state || state.permissions.length === 0) return null;
  const answer = (request_id: string, allow: boolean) => {
    setBusy(true);
    setNote(null);
    api.headless_control(groupId, actorId, { generation: state.generation, action: 'permission', request_id, allow }).then(
      (r) => setState(r.state),
      (e: unknown) => setNote(e instanceof Error ? e.message : String(e)),
    ).finally(() => setBusy(false));
  };
  return (
    <ul className="headless-permissions" aria-label={`Requests of ${actorId}`}>
      {state.permissions.map((p) => (
        <li key={p.request_id}>
          <span>{permissionLine(p)}</span>
          <button type="button" disabled={busy} onClick={() => answer(p.request_id, true)}>Approve</button>
          <button type="button" disabled={busy} onClick={() => answer(p.request_id, false)}>Deny</button>
        </li>
      ))}
      {note && <li role="alert">{note}</li>}
    </ul>
  );
}
