import { useCallback, useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useActors } from '../api/use-actors';

type Overview = RouteResult<'capability_overview'>;
type State = RouteResult<'capability_state'>;
type Search = RouteResult<'capability_search'>;

/**
 * Capabilities (§8.3): the library (built-in packs, curated and imported records), what one
 * actor has in effect and sees as MCP tools, enable/disable at group or actor scope, group
 * blocks, and a search that also asks the remote sources (their failures are shown, not hidden).
 */
export function CapabilitiesPanel({ groupId }: { groupId: string }) {
  const { actors } = useActors(groupId);
  const [actorId, setActorId] = useState('');
  const [scope, setScope] = useState<'group' | 'actor'>('actor');
  const [overview, setOverview] = useState<Overview | null>(null);
  const [state, setState] = useState<State | null>(null);
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<Search | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const target = actorId || actors[0]?.id || '';
  const fail = (e: Error) => setStatus({ ok: false, text: e instanceof ApiError ? `${e.code}: ${e.message}` : e.message });

  useEffect(() => {
    let live = true;
    api.capability_overview({ include_indexed: false }).then((r) => live && setOverview(r), (e: Error) => live && fail(e));
    if (target) api.capability_state(groupId, { actor_id: target }).then((r) => live && setState(r), (e: Error) => live && fail(e));
    return () => {
      live = false;
    };
  }, [groupId, target, tick]);

  const enable = (capabilityId: string, enabled: boolean) =>
    api.capability_enable(groupId, { capability_id: capabilityId, scope, enabled, ...(scope === 'actor' ? { actor_id: target } : {}) }).then((r) => {
      setStatus({ ok: r.state !== 'blocked' && r.state !== 'failed', text: `${r.capability_id}: ${r.state}${r.reason ? ` (${r.reason})` : ''}` });
      reload();
    }, fail);
  const block = (capabilityId: string, blocked: boolean) =>
    api.capability_block(groupId, { capability_id: capabilityId, blocked }).then((r) => {
      setStatus({ ok: true, text: `${r.capability_id}: ${r.state}` });
      reload();
    }, fail);

  const enabled = new Set(state?.enabled_capabilities ?? []);
  const blocked = new Set((state?.blocked_capabilities ?? []).map((b) => b.capability_id));
  const rows = search ? search.items : (overview?.items ?? []);

  return (
    <fieldset className="capabilities" aria-label="Capabilities">
      <legend>Capabilities</legend>
      <div className="row">
        <label>
          Actor{' '}
          <select aria-label="Capability actor" value={target} onChange={(e) => setActorId(e.target.value)}>
            {actors.map((a) => (
              <option key={a.id} value={a.id}>
                {a.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Scope{' '}
          <select aria-label="Capability scope" value={scope} onChange={(e) => setScope(e.target.value as 'group' | 'actor')}>
            <option value="actor">this actor</option>
            <option value="group">whole group</option>
          </select>
        </label>
      </div>
      {state && (
        <p className="muted" aria-label="Visible tools">
          {state.actor_id}
          {state.is_foreman ? ' (foreman)' : ''} sees {state.visible_tool_count} tools: {state.visible_tools.join(', ')}. External tool limit {state.dynamic_tool_limit}
          {state.dynamic_tool_dropped ? `, ${state.dynamic_tool_dropped} dropped` : ''}.
        </p>
      )}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (!query.trim()) {
            setSearch(null);
            return;
          }
          api.capability_search(groupId, { query, actor_id: target }).then(setSearch, fail);
        }}
      >
        <input aria-label="Search capabilities" placeholder="search packs, skills, MCP servers" value={query} onChange={(e) => setQuery(e.target.value)} />
        <button type="submit">Search</button>
        {search?.search_diagnostics?.remote_error && <small className="muted">remote: {search.search_diagnostics.remote_error}</small>}
      </form>
      <table className="capability-table" aria-label="Capability catalog">
        <thead>
          <tr>
            <th>Capability</th>
            <th>Kind</th>
            <th>Level</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((item) => {
            const on = enabled.has(item.capability_id);
            const isBlocked = blocked.has(item.capability_id);
            return (
              <tr key={item.capability_id} data-capability={item.capability_id}>
                <td title={item.description_short}>
                  <code>{item.capability_id}</code> {item.name}
                </td>
                <td>{item.kind}</td>
                <td>{item.policy_level}</td>
                <td>{isBlocked ? 'blocked' : on ? 'enabled' : '—'}</td>
                <td>
                  <button aria-label={`${on ? 'Disable' : 'Enable'} ${item.capability_id}`} disabled={isBlocked} onClick={() => void enable(item.capability_id, !on)}>
                    {on ? 'Disable' : 'Enable'}
                  </button>
                  <button aria-label={`${isBlocked ? 'Unblock' : 'Block'} ${item.capability_id}`} onClick={() => void block(item.capability_id, !isBlocked)}>
                    {isBlocked ? 'Unblock' : 'Block'}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {overview && <small className="muted">Allowlist revision {overview.allowlist_revision}</small>}
      {status && (
        <p className={status.ok ? 'form-ok' : 'form-error'} role="status" aria-label="Capability status">
          {status.text}
        </p>
      )}
    </fieldset>
  );
}
