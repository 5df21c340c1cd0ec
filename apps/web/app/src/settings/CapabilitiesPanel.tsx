import { useCallback, useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useActors } from '../api/use-actors';
import { useT } from '../i18n/I18nProvider';
import { wordFor } from '../i18n/plain';
import { Rich } from '../i18n/Rich';
import { ScrollTable } from '../ui/ScrollTable';

type Overview = RouteResult<'capability_overview'>;
type State = RouteResult<'capability_state'>;
type Search = RouteResult<'capability_search'>;

/**
 * Capabilities (§8.3): the library (built-in packs, curated and imported records), what one
 * actor has in effect and sees as MCP tools, enable/disable at group or actor scope, group
 * blocks, and a search that also asks the remote sources (their failures are shown, not hidden).
 */
export function CapabilitiesPanel({ groupId }: { groupId: string }) {
  const t = useT();
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
      setStatus({ ok: r.state !== 'blocked' && r.state !== 'failed', text: t(r.reason ? 'caps.statusReason' : 'caps.status', { id: r.capability_id, state: wordFor(t, 'caps.result', r.state), reason: r.reason ?? '' }) });
      reload();
    }, fail);
  const block = (capabilityId: string, blocked: boolean) =>
    api.capability_block(groupId, { capability_id: capabilityId, blocked }).then((r) => {
      setStatus({ ok: true, text: t('caps.status', { id: r.capability_id, state: wordFor(t, 'caps.result', r.state) }) });
      reload();
    }, fail);

  const enabled = new Set(state?.enabled_capabilities ?? []);
  const blocked = new Set((state?.blocked_capabilities ?? []).map((b) => b.capability_id));
  const rows = search ? search.items : (overview?.items ?? []);

  return (
    <fieldset className="capabilities" aria-label={t('caps.title')}>
      <legend>{t('caps.title')}</legend>
      <div className="row">
        <label>
          {t('caps.actor')}{' '}
          <select aria-label={t('caps.actorAria')} value={target} onChange={(e) => setActorId(e.target.value)}>
            {actors.map((a) => (
              <option key={a.id} value={a.id}>
                {a.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('caps.scope')}{' '}
          <select aria-label={t('caps.scopeAria')} value={scope} onChange={(e) => setScope(e.target.value as 'group' | 'actor')}>
            <option value="actor">{t('caps.scope.actor')}</option>
            <option value="group">{t('caps.scope.group')}</option>
          </select>
        </label>
      </div>
      {state && (
        <p className="muted" aria-label={t('caps.visibleAria')}>
          <Rich
            text={t('caps.sees', {
              actor: state.actor_id,
              foreman: state.is_foreman ? t('caps.foreman') : '',
              count: state.visible_tool_count,
              limit: state.dynamic_tool_limit,
              dropped: state.dynamic_tool_dropped ? t('caps.dropped', { count: state.dynamic_tool_dropped }) : '',
            })}
            parts={{ tools: <code>{state.visible_tools.join(', ')}</code> }}
          />
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
        <input aria-label={t('caps.searchAria')} placeholder={t('caps.searchPlaceholder')} value={query} onChange={(e) => setQuery(e.target.value)} />
        <button type="submit">{t('caps.search')}</button>
        {search?.search_diagnostics?.remote_error && <small className="muted">
            <Rich text={t('caps.remote')} parts={{ error: <span data-daemon-text>{search.search_diagnostics.remote_error}</span> }} />
          </small>}
      </form>
      <ScrollTable className="capability-table" label={t('caps.catalogAria')} columns={[t('caps.col.capability'), t('caps.col.kind'), t('caps.col.level'), t('caps.col.state'), '']}>
        {rows.map((item) => {
          const on = enabled.has(item.capability_id);
          const isBlocked = blocked.has(item.capability_id);
          return (
            <tr key={item.capability_id} data-capability={item.capability_id}>
              <td title={item.description_short}>
                <code>{item.capability_id}</code> <span data-daemon-text>{item.name}</span>
              </td>
              <td>{wordFor(t, 'caps.kind', item.kind)}</td>
              <td>{item.policy_level ? wordFor(t, 'caps.level', item.policy_level) : ''}</td>
              <td>{isBlocked ? t('caps.state.blocked') : on ? t('caps.state.enabled') : '—'}</td>
              <td>
                <button aria-label={t(on ? 'caps.disableAria' : 'caps.enableAria', { id: item.capability_id })} disabled={isBlocked} onClick={() => void enable(item.capability_id, !on)}>
                  {t(on ? 'caps.disable' : 'caps.enable')}
                </button>
                <button aria-label={t(isBlocked ? 'caps.unblockAria' : 'caps.blockAria', { id: item.capability_id })} onClick={() => void block(item.capability_id, !isBlocked)}>
                  {t(isBlocked ? 'caps.unblock' : 'caps.block')}
                </button>
              </td>
            </tr>
          );
        })}
      </ScrollTable>
      {overview && (
        <small className="muted">
          <Rich text={t('caps.allowlist')} parts={{ revision: <code>{overview.allowlist_revision}</code> }} />
        </small>
      )}
      {status && (
        <p className={status.ok ? 'form-ok' : 'form-error'} role="status" aria-label={t('caps.statusAria')}>
          {status.text}
        </p>
      )}
    </fieldset>
  );
}
