import { checkPermission, principalOf, readBranding, readObservability, updateBranding, updateObservability, type HomeLayout } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import type { LogThreshold } from '../log.js';

export interface ObservabilityOpsDeps {
  readonly layout: HomeLayout;
  /** The daemon log's threshold, moved by `log_level`. */
  readonly logThreshold: LogThreshold;
}

/**
 * §8.2 observability_get|update and branding_get|update: global settings in
 * CCCC_HOME/settings.yaml. Anyone may read; only the user may change them
 * (`settings.global`).
 */
export function registerObservabilityOps(router: OpRouter, deps: ObservabilityOpsDeps): void {
  const { layout } = deps;
  router.register('observability_get', () => ({ observability: readObservability(layout) }));
  router.register('observability_update', (args) => {
    checkPermission(principalOf(args.by), 'settings.global');
    const observability = updateObservability(layout, args.patch);
    deps.logThreshold.setFromName(observability.log_level);
    return { observability };
  });
  router.register('branding_get', () => ({ branding: readBranding(layout) }));
  router.register('branding_update', (args) => {
    checkPermission(principalOf(args.by), 'settings.global');
    return { branding: updateBranding(layout, args.patch) };
  });
}
