// @cccc/automation: the rule engine of group automation (§8.3), pure — validation, next fires
// (interval, cron with time zones via croner, at), the tick decision, rebasing on resume and
// restart, snippets and who may manage which rule. The daemon owns clock, files and actions.
export { AutomationErrorCodes, automationError, type AutomationErrorCode } from './errors.js';
export { isoUtc, parseRfc3339 } from './time.js';
export { compileCron, cronNextAfter, cronLatestDue, intervalLatestSlot, isValidTimeZone, triggerProblem } from './schedule.js';
export {
  SUPPORTED_VARS,
  STANDUP_RULE_ID,
  BUILTIN_SNIPPETS,
  baselineRules,
  actionKind,
  checkRule,
  checkRuleset,
  parseRule,
  splitSnippets,
  effectiveSnippets,
  renderSnippet,
  type SnippetVars,
} from './ruleset.js';
export { peerView, visibleToPeer, ruleRefusal, type CallerRole } from './access.js';
export { evaluateRule, afterDue, withError, rebase, ruleStatus, nextFireAt, reconcileState, runsIn, type RuleState, type Evaluation, type GroupRunState } from './engine.js';
export {
  builtinSettings,
  silenceDecision,
  keepaliveDecision,
  helpNudgeDecision,
  actorIdleDecision,
  declaredNext,
  type BuiltinSettings,
  type SilenceDecision,
  type KeepaliveState,
} from './builtins.js';
