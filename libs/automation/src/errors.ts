import { IpcError } from '@cccc/ipc-protocol';

/** Stable codes of the automation domain (§8.3 group_automation_*). */
export const AutomationErrorCodes = {
  /** A rule that parses but cannot run: empty or duplicate id, bad cron/time zone/at, a non-`at` trigger on group_state/actor_control, a personal rule without owner. */
  invalidRule: 'invalid_rule',
  /** `expected_version` is not the stored version. */
  versionConflict: 'version_conflict',
  /** manage: update/enable/delete of a rule id that does not exist. */
  ruleNotFound: 'rule_not_found',
  /** manage: create_rule of an id that exists. */
  ruleExists: 'rule_exists',
} as const;

export type AutomationErrorCode = (typeof AutomationErrorCodes)[keyof typeof AutomationErrorCodes];

export function automationError(code: AutomationErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}
