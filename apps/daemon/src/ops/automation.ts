import { principalOf } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import type { AutomationService } from '../automation/automation-service.js';

export interface AutomationOpsDeps {
  readonly automation: AutomationService;
}

/** §8.3 group_automation_update|state|manage|reset_baseline over the automation service. */
export function registerAutomationOps(router: OpRouter, deps: AutomationOpsDeps): void {
  const { automation } = deps;
  router.register('group_automation_state', (args) => automation.view(args.group_id, principalOf(args.by)));
  router.register('group_automation_update', (args) => automation.update(args, principalOf(args.by)));
  router.register('group_automation_manage', (args) => automation.manage(args, principalOf(args.by)));
  router.register('group_automation_reset_baseline', (args) => automation.resetBaseline(args, principalOf(args.by)));
}
