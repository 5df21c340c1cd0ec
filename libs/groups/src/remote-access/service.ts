import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { IpcError } from '@cccc/ipc-protocol';
import { utcNowIso } from '../clock.js';
import { readRemoteAccessSection, writeRemoteAccessSection } from '../global-settings/settings-file.js';
import type { HomeLayout } from '../home-layout.js';
import {
  PROVIDER_MODES,
  RemoteAccessErrorCodes,
  adminRuleSatisfied,
  applyConfigure,
  exposesRemotely,
  isLoopbackHost,
  readStored,
  webBinding,
  type ConfigurePatch,
  type StoredRemoteAccess,
  type TokenFacts,
} from './config.js';
import {
  TAILSCALE_DEADLINE_MS,
  findTailscale,
  parseTailscaleStatus,
  runBounded,
  tailscaleStartArgs,
  tailscaleStatusArgs,
  tailscaleStopArgs,
  type CommandOutcome,
  type TailscaleMode,
} from './tailscale.js';

// The IO shell of §8.17: state/configure/start/stop over settings.yaml `remote_access`,
// access_tokens.yaml (counted, never read out) and the tailscale CLI. A failed start/stop
// leaves the stored desired state as it was.

export interface RemoteAccessOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Deadline of tailscale start/stop commands (30 s per spec; tests shorten it). */
  readonly commandTimeoutMs?: number;
  readonly statusTimeoutMs?: number;
}

/** Counts of access tokens in CCCC_HOME/access_tokens.yaml; an unreadable file counts as none. */
export function accessTokenFacts(home: string): TokenFacts {
  try {
    const doc = parse(readFileSync(join(home, 'access_tokens.yaml'), 'utf8')) as { tokens?: Record<string, { is_admin?: unknown }> | null } | null;
    const entries = Object.values(doc?.tokens ?? {});
    return { count: entries.length, adminCount: entries.filter((e) => e?.is_admin === true).length };
  } catch {
    return { count: 0, adminCount: 0 };
  }
}

function failure(code: string, what: string, outcome: CommandOutcome): IpcError {
  const why = outcome.timed_out ? 'timed out (external network changes are not rolled back; inspect tailscale before retrying)' : `exited with ${outcome.exit_code}`;
  return new IpcError(code, `tailscale ${what} ${why}`, {
    exit_code: outcome.exit_code,
    timed_out: outcome.timed_out,
    stderr: outcome.stderr.slice(-2000),
  });
}

/** The §8.17 `remote_access` object. */
export type RemoteAccessView = {
  provider: 'off' | 'manual' | 'tailscale' | 'reach';
  mode: string;
  require_access_token: boolean;
  enabled: boolean;
  status: 'stopped' | 'running' | 'not_installed' | 'not_authenticated' | 'misconfigured' | 'error';
  endpoint: string | null;
  updated_at: string | null;
  diagnostics: Record<string, unknown>;
  config: Record<string, unknown>;
  next_steps: string[];
};

export class RemoteAccessService {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly layout: HomeLayout,
    private readonly options: RemoteAccessOptions = {},
  ) {
    this.env = options.env ?? process.env;
  }

  private stored(): StoredRemoteAccess {
    return readStored(readRemoteAccessSection(this.layout));
  }

  private save(next: StoredRemoteAccess): void {
    writeRemoteAccessSection(this.layout, JSON.parse(JSON.stringify(next)) as Record<string, unknown>);
  }

  async state(): Promise<{ remote_access: RemoteAccessView }> {
    const stored = this.stored();
    const binding = webBinding(stored, this.env);
    const tokens = accessTokenFacts(this.layout.home);
    const override = this.env.CCCC_WEB_ALLOW_UNAUTHENTICATED === '1';
    const exposes = exposesRemotely(stored, binding);
    const satisfied = adminRuleSatisfied(tokens, this.env);
    const mode = stored.mode || PROVIDER_MODES[stored.provider][0]!;
    let status: RemoteAccessView['status'] = 'stopped';
    let endpoint: string | null = null;
    let tailscaleInstalled: boolean | null = null;
    let backendState: string | null = null;
    const nextSteps: string[] = [];
    if (stored.provider === 'manual') {
      const urlHost = binding.host.includes(':') ? `[${binding.host}]` : binding.host;
      endpoint = binding.public_url ?? `http://${urlHost}:${binding.port}/`;
      status = stored.enabled ? (exposes && !satisfied ? 'misconfigured' : 'running') : 'stopped';
    } else if (stored.provider === 'tailscale') {
      const bin = findTailscale(this.env);
      tailscaleInstalled = bin !== null;
      if (!bin) {
        status = 'not_installed';
        nextSteps.push('install the tailscale CLI on this machine, or choose provider "manual"');
      } else {
        const out = await runBounded(bin, tailscaleStatusArgs(), this.options.statusTimeoutMs ?? 5_000);
        const parsed = parseTailscaleStatus(out.stdout);
        backendState = parsed.backend_state;
        if (out.missing) status = 'not_installed';
        else if (backendState === 'NeedsLogin' || backendState === 'NoState' || backendState === 'Stopped') status = 'not_authenticated';
        else if (!out.ok && backendState === null) status = 'error';
        else status = stored.enabled ? 'running' : 'stopped';
        if (parsed.dns_name && stored.enabled) endpoint = `https://${parsed.dns_name}/`;
        if (status === 'not_authenticated') nextSteps.push('run `tailscale up` to log this machine in');
      }
    } else if (stored.provider === 'reach') {
      status = stored.enabled ? 'running' : 'stopped';
      endpoint = binding.public_url;
    }
    if (exposes && !satisfied) nextSteps.push('create an administrator access token (`cccc web token create --admin`) before exposing the Web');
    if (stored.provider === 'off') nextSteps.push('choose a provider with remote_access_configure (manual or tailscale)');
    else if (!stored.enabled && status !== 'not_installed') nextSteps.push('start remote access with remote_access_start');
    return {
      remote_access: {
        provider: stored.provider,
        mode,
        require_access_token: stored.require_access_token,
        enabled: stored.enabled,
        status,
        endpoint,
        updated_at: stored.updated_at ?? null,
        diagnostics: {
          access_token_present: tokens.count > 0,
          access_token_source: tokens.count > 0 ? 'store' : 'none',
          access_token_count: tokens.count,
          admin_access_token_present: tokens.adminCount > 0,
          admin_access_token_count: tokens.adminCount,
          remote_listener_auth_required: exposes,
          remote_listener_auth_requirement_satisfied: !exposes || satisfied,
          allow_unauthenticated_listener_override: override,
          web_host: binding.host,
          web_host_source: binding.host_source,
          web_port: binding.port,
          web_port_source: binding.port_source,
          web_public_url: binding.public_url,
          web_public_url_source: binding.public_url_source,
          web_bind_loopback: isLoopbackHost(binding.host),
          web_bind_reachable: !isLoopbackHost(binding.host),
          mode_supported: PROVIDER_MODES[stored.provider].includes(mode),
          tailscale_installed: tailscaleInstalled,
          tailscale_backend_state: backendState,
        },
        config: {
          web_host: binding.host,
          web_port: binding.port,
          web_public_url: binding.public_url,
          access_token_configured: tokens.count > 0,
          access_token_count: tokens.count,
          admin_access_token_configured: tokens.adminCount > 0,
          admin_access_token_count: tokens.adminCount,
          access_token_source: tokens.count > 0 ? 'store' : 'none',
        },
        next_steps: nextSteps,
      },
    };
  }

  /** Save a new configuration; an enabled remote exposure without an admin token is refused, nothing written. */
  async configure(patch: ConfigurePatch): Promise<{ remote_access: RemoteAccessView }> {
    const next = applyConfigure(this.stored(), patch, utcNowIso());
    if (next.enabled) this.assertAdminRule(next);
    this.save(next);
    return this.state();
  }

  private assertAdminRule(stored: StoredRemoteAccess): void {
    if (exposesRemotely(stored, webBinding(stored, this.env)) && !adminRuleSatisfied(accessTokenFacts(this.layout.home), this.env)) {
      throw new IpcError(RemoteAccessErrorCodes.adminTokenRequired, 'remote exposure needs an administrator access token first (cccc web token create --admin)', {
        provider: stored.provider,
      });
    }
  }

  async start(): Promise<{ remote_access: RemoteAccessView }> {
    const stored = this.stored();
    if (stored.provider === 'off') throw new IpcError(RemoteAccessErrorCodes.notConfigured, 'remote access provider is off; configure manual or tailscale first');
    if (stored.provider === 'reach') throw new IpcError(RemoteAccessErrorCodes.reachActive, 'reach is started with membership_reach_on');
    this.assertAdminRule(stored);
    if (stored.provider === 'tailscale') {
      const bin = findTailscale(this.env);
      if (!bin) throw new IpcError(RemoteAccessErrorCodes.notInstalled, 'the tailscale CLI is not installed on this machine');
      const port = webBinding(stored, this.env).port;
      const outcome = await runBounded(bin, tailscaleStartArgs(stored.mode as TailscaleMode, port), this.options.commandTimeoutMs ?? TAILSCALE_DEADLINE_MS);
      if (outcome.missing) throw new IpcError(RemoteAccessErrorCodes.notInstalled, 'the tailscale CLI could not be run');
      if (!outcome.ok) throw failure(RemoteAccessErrorCodes.startFailed, 'start', outcome);
    }
    this.save({ ...stored, enabled: true, updated_at: utcNowIso() });
    return this.state();
  }

  async stop(): Promise<{ remote_access: RemoteAccessView }> {
    const stored = this.stored();
    if (stored.provider === 'reach') throw new IpcError(RemoteAccessErrorCodes.reachActive, 'reach is stopped with membership_reach_off');
    if (stored.provider === 'tailscale') {
      const bin = findTailscale(this.env);
      if (!bin) throw new IpcError(RemoteAccessErrorCodes.notInstalled, 'the tailscale CLI is not installed on this machine');
      const outcome = await runBounded(bin, tailscaleStopArgs(stored.mode as TailscaleMode), this.options.commandTimeoutMs ?? TAILSCALE_DEADLINE_MS);
      if (outcome.missing) throw new IpcError(RemoteAccessErrorCodes.notInstalled, 'the tailscale CLI could not be run');
      if (!outcome.ok) throw failure(RemoteAccessErrorCodes.stopFailed, 'stop', outcome);
    }
    this.save({ ...stored, enabled: false, updated_at: utcNowIso() });
    return this.state();
  }
}
