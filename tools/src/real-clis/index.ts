import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';
import { readRealClis, type RealCliName, type RealClisState } from '../../real-clis/install.mjs';

export { REAL_CLI_PINS, realClisDir, readRealClis, installRealClis, type RealClisState, type RealCliName } from '../../real-clis/install.mjs';

export interface RealClis {
  /** The cache's `node_modules/.bin`. */
  binDir: string;
  /** Absolute path of one pinned binary. */
  bin(name: RealCliName): string;
  /** `env` with the cache's `.bin` first on its PATH. */
  withPath(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
}

export const isCi = (env: NodeJS.ProcessEnv = process.env): boolean => env.CI === 'true' || env.CI === '1';

function toRealClis(state: Extract<RealClisState, { ok: true }>): RealClis {
  return {
    binDir: state.binDir,
    bin: (name) => join(state.binDir, name),
    withPath: (env = process.env) => ({ ...env, PATH: [state.binDir, env.PATH ?? ''].filter(Boolean).join(delimiter) }),
  };
}

/**
 * A describe block for tests that drive the pinned real CLIs. When the cache holds no complete
 * install, the block is reported as skipped with the reason in its name (and the reason is
 * printed as SKIPPED); under CI=true it holds one failing test instead, so CI never passes by
 * skipping.
 */
export function describeWithRealClis(title: string, body: (clis: RealClis) => void): void {
  const state = readRealClis();
  if (state.ok) {
    describe(title, () => body(toRealClis(state)));
    return;
  }
  if (isCi()) {
    describe(title, () => {
      it('has the pinned real CLIs (CI=true: a skip is a failure)', () => {
        throw new Error(`real CLIs unavailable under CI=true: ${state.reason}`);
      });
    });
    return;
  }
  console.warn(`SKIPPED ${title}: ${state.reason}`);
  describe.skip(`${title} (SKIPPED: ${state.reason})`, () => {
    it.skip(`needs the pinned real CLIs: ${state.reason}`, () => {});
  });
}

export {
  FAKE_API_KEY,
  tempAgentHome,
  claudeEnv,
  seedClaudeHome,
  codexProviderArgs,
  codexEnv,
  writeCodexConfig,
  writeOpencodeConfig,
  opencodeEnv,
  writeKiloConfig,
  kiloEnv,
  copilotEnv,
  runBounded,
  killGroup,
  type Finished,
} from './agents.js';
export { startPtyAgent, recordingHookSettings, recordingCodexHookArgs, readHookPayloads, waitForHook, type PtyAgent, type HookPayload } from './pty-agent.js';
