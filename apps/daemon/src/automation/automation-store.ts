import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AutomationRule, type AutomationRuleSet } from '@cccc/ipc-protocol';
import { automationError, AutomationErrorCodes, baselineRules, splitSnippets, type RuleState } from '@cccc/automation';
import { updateGroup, type GroupDoc, type HomeLayout } from '@cccc/groups';
import { writeFileAtomicSync } from '@cccc/durable-fs';

// The two authority files of §8.3: group.yaml:automation (rules, snippets, version) and
// state/automation.json (per-rule clocks, fires, errors). Only the daemon writes either.

export interface StoredAutomation {
  readonly version: number;
  readonly rules: AutomationRule[];
  /** Custom snippets and overrides of built-in ones, as stored. */
  readonly snippets: Record<string, string>;
  readonly snippet_overrides: Record<string, string>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringMap = (v: unknown): Record<string, string> =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};

/**
 * The ruleset group.yaml holds. No automation section (an old group) is the baseline; a stored
 * rule that no longer validates (hand-edited) is left out of what runs.
 */
export function storedAutomation(group: GroupDoc): StoredAutomation {
  const doc = (group as Record<string, unknown>)['automation'];
  if (!isRecord(doc) || (!Array.isArray(doc['rules']) && !isRecord(doc['snippets']) && !isRecord(doc['snippet_overrides']))) {
    return { version: 1, rules: baselineRules(), snippets: {}, snippet_overrides: {} };
  }
  const rules = (Array.isArray(doc['rules']) ? doc['rules'] : []).flatMap((raw) => {
    const parsed = AutomationRule.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
  const version = typeof doc['version'] === 'number' && doc['version'] > 0 ? Math.floor(doc['version']) : 1;
  return { version, rules, snippets: stringMap(doc['snippets']), snippet_overrides: stringMap(doc['snippet_overrides']) };
}

/**
 * Replace rules and snippets, bump the version; `expected_version` is checked inside the
 * group.yaml lock, so two writers cannot both win. The automation settings keys stay.
 */
export async function writeAutomation(layout: HomeLayout, groupId: string, ruleset: AutomationRuleSet, expectedVersion?: number): Promise<{ version: number; previous: StoredAutomation; previousDoc: unknown }> {
  const { result } = await updateGroup(layout, groupId, (g) => {
    const previous = storedAutomation(g);
    if (expectedVersion !== undefined && expectedVersion !== previous.version) {
      throw automationError(AutomationErrorCodes.versionConflict, 'automation version mismatch', { expected_version: expectedVersion, current_version: previous.version });
    }
    const record = g as Record<string, unknown>;
    const previousDoc = structuredClone(record['automation']);
    const base = isRecord(record['automation']) ? record['automation'] : {};
    const version = previous.version + 1;
    record['automation'] = { ...base, version, rules: ruleset.rules, ...splitSnippets(ruleset.snippets) };
    return { version, previous, previousDoc };
  });
  return result;
}

/** Put group.yaml:automation back as it was (a transition whose later step failed). */
export async function restoreAutomation(layout: HomeLayout, groupId: string, previousDoc: unknown): Promise<void> {
  await updateGroup(layout, groupId, (g) => {
    const record = g as Record<string, unknown>;
    if (previousDoc === undefined) delete record['automation'];
    else record['automation'] = previousDoc;
  });
}

export interface AutomationStateFile {
  v: number;
  rules: Record<string, RuleState>;
  updated_at?: string;
  [key: string]: unknown;
}

export function automationStatePath(layout: HomeLayout, groupId: string): string {
  return join(layout.groupDir(groupId), 'state', 'automation.json');
}

/** The runtime state; a missing or unreadable file is a fresh one (clocks start again, nothing catches up). */
export function readAutomationState(layout: HomeLayout, groupId: string): AutomationStateFile {
  try {
    const doc = JSON.parse(readFileSync(automationStatePath(layout, groupId), 'utf8')) as unknown;
    if (isRecord(doc)) return { ...doc, v: Math.max(5, Number(doc['v']) || 0), rules: isRecord(doc['rules']) ? (doc['rules'] as Record<string, RuleState>) : {} };
  } catch {
    /* fresh */
  }
  return { v: 5, rules: {} };
}

/** The raw file text (undefined: absent), to restore exactly after a failed transition. */
export function readAutomationStateText(layout: HomeLayout, groupId: string): string | undefined {
  try {
    return readFileSync(automationStatePath(layout, groupId), 'utf8');
  } catch {
    return undefined;
  }
}

export function restoreAutomationStateText(layout: HomeLayout, groupId: string, text: string | undefined): void {
  if (text === undefined) rmSync(automationStatePath(layout, groupId), { force: true });
  else writeFileAtomicSync(automationStatePath(layout, groupId), text);
}

export function writeAutomationState(layout: HomeLayout, groupId: string, state: AutomationStateFile, now: string): void {
  writeFileAtomicSync(automationStatePath(layout, groupId), JSON.stringify({ ...state, updated_at: now }, null, 2));
}
