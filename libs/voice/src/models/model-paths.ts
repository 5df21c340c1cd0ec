import { join } from 'node:path';

/** Where one model lives under CCCC_HOME/cache/voice-models/<model_id>/ (spec §8.3). */
export interface ModelPaths {
  readonly root: string;
  /** The switched-in model; complete only when its `installed.json` exists (written last). */
  readonly active: string;
  readonly installedRecord: string;
  readonly installState: string;
  readonly lock: string;
}

export const voiceModelsRoot = (home: string) => join(home, 'cache', 'voice-models');
export const INSTALLED_RECORD = 'installed.json';
export const STAGING_PREFIX = '.staging-';
export const PREVIOUS_PREFIX = '.previous-';

export function modelPaths(home: string, modelId: string): ModelPaths {
  const root = join(voiceModelsRoot(home), modelId);
  const active = join(root, 'active');
  return {
    root,
    active,
    installedRecord: join(active, INSTALLED_RECORD),
    installState: join(root, 'install-state.json'),
    lock: join(root, '.install.lock'),
  };
}
