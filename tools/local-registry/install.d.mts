export interface LocalRegistryPins {
  readonly dependencies: Readonly<Record<string, string>>;
  readonly overrides?: Readonly<Record<string, string>>;
}
export type LocalRegistryState =
  | { ok: true; dir: string; bin: string; version?: string; installed?: true; seconds?: number }
  | { ok: false; dir: string; reason: string };

export declare const LOCAL_REGISTRY_PINS: LocalRegistryPins;
export declare const MARKER_FILE: string;
export declare function pinsKey(pins?: LocalRegistryPins): string;
export declare function localRegistryCacheRoot(env?: NodeJS.ProcessEnv): string;
export declare function localRegistryDir(env?: NodeJS.ProcessEnv, pins?: LocalRegistryPins): string;
export declare function readLocalRegistry(env?: NodeJS.ProcessEnv, pins?: LocalRegistryPins): LocalRegistryState;
export declare function installLocalRegistry(options?: {
  env?: NodeJS.ProcessEnv;
  pins?: LocalRegistryPins;
  log?: (line: string) => void;
}): LocalRegistryState;
