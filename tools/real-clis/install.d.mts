export type RealCliName = 'claude' | 'codex' | 'opencode' | 'kilo' | 'copilot';
export type RealClisState =
  | { ok: true; dir: string; binDir: string; versions?: Record<RealCliName, string>; installed?: true; seconds?: number }
  | { ok: false; dir: string; reason: string };

export declare const REAL_CLI_PINS: Readonly<Record<string, string>>;
export declare const REAL_CLI_BINARIES: Readonly<Record<RealCliName, string>>;
export declare const MARKER_FILE: string;
export declare function pinsKey(pins?: Record<string, string>): string;
export declare function realClisCacheRoot(env?: NodeJS.ProcessEnv): string;
export declare function realClisDir(env?: NodeJS.ProcessEnv, pins?: Record<string, string>): string;
export declare function readRealClis(env?: NodeJS.ProcessEnv, pins?: Record<string, string>): RealClisState;
export declare function installRealClis(options?: {
  env?: NodeJS.ProcessEnv;
  pins?: Record<string, string>;
  log?: (line: string) => void;
}): RealClisState;
