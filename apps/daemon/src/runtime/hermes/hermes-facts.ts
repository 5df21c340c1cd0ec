import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HermesStatus } from '@cccc/ipc-protocol';
import { detectInstalled } from '@cccc/pty-runtime';
import type { CliLauncher } from '../cli-launcher.js';
import { runFinite } from './finite-command.js';
import { hermesHome, hermesStatus } from './hermes-status.js';

// The IO shell of runtime_hermes_status: the hermes executable on the daemon's PATH (the PATH
// actors launch with), its version, and the selected profile's files. Reading never writes.

const VERSION_TIMEOUT_MS = 5_000;

export interface HermesContext {
  /** CCCC_HOME of this daemon (the probe env of mcp_test). */
  readonly home: string;
  readonly cli: CliLauncher | undefined;
  readonly env: NodeJS.ProcessEnv;
}

export function hermesExecutable(ctx: HermesContext): string | undefined {
  return detectInstalled('hermes', ctx.env.PATH).path;
}

export async function readHermesStatus(ctx: HermesContext): Promise<HermesStatus> {
  const home = hermesHome(ctx.env);
  const path = hermesExecutable(ctx);
  let version: string | undefined;
  if (path) {
    const out = await runFinite([path, '--version'], { env: ctx.env, timeoutMs: VERSION_TIMEOUT_MS });
    // Only a printed version counts (a bridge whose runtime is missing prints an error instead).
    version = out.ok && out.returncode === 0 ? /\d+\.\d+(\.\d+)?\S*/.exec(out.stdout)?.[0] : undefined;
  }
  let configText: string | undefined;
  try {
    configText = readFileSync(join(home, 'config.yaml'), 'utf8');
  } catch {
    configText = undefined;
  }
  return hermesStatus({
    home,
    cli: { ...(path ? { path } : {}), ...(version ? { version } : {}) },
    profileExists: existsSync(home),
    configText,
    authFileExists: existsSync(join(home, 'auth.json')),
    expectedMcpCommand: ctx.cli ? [ctx.cli.node, ctx.cli.cliEntry, 'mcp'] : undefined,
  });
}
