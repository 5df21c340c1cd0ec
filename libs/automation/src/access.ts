import type { AutomationRule, AutomationRuleSet } from '@cccc/ipc-protocol';
import { actionKind } from './ruleset.js';

// Who may see and change which rules (§8.3 notes): the user everything; the foreman notify
// rules only; a peer its own personal notify rule targeting itself. Peers read group rules and
// their own personal rules.

export type CallerRole = 'user' | 'foreman' | 'peer';

export function visibleToPeer(rule: AutomationRule, peerId: string): boolean {
  return (rule.scope ?? 'group') === 'group' || rule.owner_actor_id === peerId;
}

/** A peer's filtered view: group rules, its own personal rules, the snippets those reference. */
export function peerView(ruleset: AutomationRuleSet, peerId: string): AutomationRuleSet {
  const rules = ruleset.rules.filter((r) => visibleToPeer(r, peerId));
  const refs = new Set(rules.map((r) => (actionKind(r.action) === 'notify' && r.action && 'snippet_ref' in r.action ? r.action.snippet_ref?.trim() : '')).filter(Boolean));
  return { rules, snippets: Object.fromEntries(Object.entries(ruleset.snippets).filter(([k]) => refs.has(k))) };
}

/** Why `caller` may not hold this rule (undefined: allowed). */
export function ruleRefusal(role: CallerRole, callerId: string, rule: AutomationRule): string | undefined {
  if (role === 'user') return undefined;
  if (actionKind(rule.action) !== 'notify') return 'agents may manage only notify rules';
  if (role === 'foreman') return undefined;
  if (rule.scope !== 'personal' || rule.owner_actor_id !== callerId) return 'a peer may manage only its own personal rules (scope=personal, owner_actor_id=itself)';
  const to = (rule.to ?? []).map((t) => t.trim()).filter(Boolean);
  if (to.length !== 1 || to[0] !== callerId) return 'a peer rule must target only the peer itself';
  return undefined;
}
