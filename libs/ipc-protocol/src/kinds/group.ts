import { z } from 'zod';

/**
 * `group.*` lifecycle kinds (REFERENCE_NOTES §1.2). Loose like every kind schema: the fields the
 * kernel writes and relies on are checked, anything else the reference wrote is kept.
 */
export const GroupCreateData = z.looseObject({ title: z.string().nullish(), topic: z.string().nullish() });
export type GroupCreateData = z.infer<typeof GroupCreateData>;

export const GroupUpdateData = z.looseObject({ patch: z.record(z.string(), z.unknown()) });
export type GroupUpdateData = z.infer<typeof GroupUpdateData>;

/** Emitted to global subscribers only: the group's ledger is deleted with it. */
export const GroupDeleteData = z.looseObject({});
export type GroupDeleteData = z.infer<typeof GroupDeleteData>;

export const GroupAttachData = z.looseObject({
  url: z.string(),
  label: z.string().nullish(),
  git_remote: z.string().nullish(),
});
export type GroupAttachData = z.infer<typeof GroupAttachData>;

export const GroupDetachScopeData = z.looseObject({ scope_key: z.string() });
export type GroupDetachScopeData = z.infer<typeof GroupDetachScopeData>;

export const GroupSetActiveScopeData = z.looseObject({ path: z.string() });
export type GroupSetActiveScopeData = z.infer<typeof GroupSetActiveScopeData>;

export const GroupStartData = z.looseObject({ started: z.array(z.string()), reason: z.string().nullish() });
export type GroupStartData = z.infer<typeof GroupStartData>;

export const GroupStopData = z.looseObject({ stopped: z.array(z.string()), reason: z.string().nullish() });
export type GroupStopData = z.infer<typeof GroupStopData>;

export const GroupSetStateData = z.looseObject({
  old_state: z.string(),
  new_state: z.string(),
  reason: z.string().nullish(),
});
export type GroupSetStateData = z.infer<typeof GroupSetStateData>;

export const GroupSettingsUpdateData = z.looseObject({ patch: z.record(z.string(), z.unknown()) });
export type GroupSettingsUpdateData = z.infer<typeof GroupSettingsUpdateData>;

/** `group.automation_update`: which rules and snippets the new ruleset has, and its version. */
export const GroupAutomationUpdateData = z.looseObject({ rules: z.array(z.string()), snippets: z.array(z.string()), version: z.number().int() });
export type GroupAutomationUpdateData = z.infer<typeof GroupAutomationUpdateData>;
