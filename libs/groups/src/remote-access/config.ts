import { isIP } from 'node:net';
import { z } from 'zod';
import { IpcError } from '@cccc/ipc-protocol';

// §8.17 remote access, the pure core: the stored configuration (settings.yaml `remote_access`),
// its validation, where the Web binding comes from, and the administrator-token rule.

export const RemoteAccessErrorCodes = {
  adminTokenRequired: 'remote_access_admin_token_required',
  notInstalled: 'remote_access_not_installed',
  startFailed: 'remote_access_start_failed',
  stopFailed: 'remote_access_stop_failed',
  /** Ours: start with provider "off". */
  notConfigured: 'remote_access_not_configured',
  /** Ours: provider=reach is owned by the membership reach verbs (§8.17). */
  reachActive: 'remote_access_reach_active',
  invalidRequest: 'invalid_request',
} as const;

export const RemoteProvider = z.enum(['off', 'manual', 'tailscale', 'reach']);
export type RemoteProvider = z.infer<typeof RemoteProvider>;

/** Modes each configurable provider supports (the first is its default). */
export const PROVIDER_MODES: Readonly<Record<RemoteProvider, readonly string[]>> = {
  off: ['off'],
  manual: ['manual'],
  tailscale: ['serve', 'funnel'],
  reach: ['reach'],
};

export const StoredRemoteAccess = z.looseObject({
  provider: RemoteProvider.catch('off').default('off'),
  mode: z.string().catch('').default(''),
  require_access_token: z.boolean().catch(true).default(true),
  enabled: z.boolean().catch(false).default(false),
  web_host: z.string().nullish().catch(undefined),
  web_port: z.number().int().min(1).max(65535).nullish().catch(undefined),
  web_public_url: z.string().nullish().catch(undefined),
  updated_at: z.string().nullish().catch(undefined),
});
export type StoredRemoteAccess = z.infer<typeof StoredRemoteAccess>;

export function readStored(raw: unknown): StoredRemoteAccess {
  return StoredRemoteAccess.parse(typeof raw === 'object' && raw !== null ? raw : {});
}

export interface ConfigurePatch {
  provider?: 'off' | 'manual' | 'tailscale' | undefined;
  mode?: string | undefined;
  require_access_token?: boolean | undefined;
  web_host?: string | undefined;
  web_port?: number | undefined;
  web_public_url?: string | undefined;
}

function bad(field: string, message: string): IpcError {
  return new IpcError(RemoteAccessErrorCodes.invalidRequest, message, { field });
}

/** A host name or IP literal: no scheme, path, spaces or user info. */
export function validWebHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(h)) return true;
  return /^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,62}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,62}[a-zA-Z0-9])?)*$/.test(h);
}

/** An absolute http(s) origin (optionally with a path), no user info, query or fragment; '' clears. */
export function normalizePublicUrl(value: string): string {
  const v = value.trim();
  if (v === '') return '';
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw bad('web_public_url', 'web_public_url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad('web_public_url', 'web_public_url must use http or https');
  if (url.username || url.password || url.search || url.hash) throw bad('web_public_url', 'web_public_url must not carry user info, a query or a fragment');
  return url.toString();
}

/** Apply a configure patch to the stored config; throws invalid_request / remote_access_reach_active. */
export function applyConfigure(current: StoredRemoteAccess, patch: ConfigurePatch, now: string): StoredRemoteAccess {
  if (current.provider === 'reach') {
    throw new IpcError(RemoteAccessErrorCodes.reachActive, 'remote access is owned by membership reach; run membership_reach_off first');
  }
  const next: StoredRemoteAccess = { ...current };
  if (patch.provider !== undefined) {
    if (!['off', 'manual', 'tailscale'].includes(patch.provider)) throw bad('provider', 'provider must be off, manual or tailscale');
    if (patch.provider !== current.provider) {
      next.provider = patch.provider;
      next.mode = PROVIDER_MODES[patch.provider][0]!;
      if (current.enabled && current.provider !== 'off') next.enabled = false;
    }
  }
  if (patch.mode !== undefined) {
    if (!PROVIDER_MODES[next.provider].includes(patch.mode)) {
      throw bad('mode', `mode must be one of ${PROVIDER_MODES[next.provider].join('|')} for provider ${next.provider}`);
    }
    next.mode = patch.mode;
  }
  if (!PROVIDER_MODES[next.provider].includes(next.mode)) next.mode = PROVIDER_MODES[next.provider][0]!;
  if (patch.require_access_token !== undefined) next.require_access_token = patch.require_access_token;
  if (patch.web_host !== undefined) {
    const host = patch.web_host.trim();
    if (!validWebHost(host)) throw bad('web_host', 'web_host must be a host name or IP address');
    next.web_host = host;
  }
  if (patch.web_port !== undefined) {
    if (!Number.isInteger(patch.web_port) || patch.web_port < 1 || patch.web_port > 65535) throw bad('web_port', 'web_port must be 1..65535');
    next.web_port = patch.web_port;
  }
  if (patch.web_public_url !== undefined) next.web_public_url = normalizePublicUrl(patch.web_public_url) || null;
  if (next.provider === 'off') next.enabled = false;
  next.updated_at = now;
  return next;
}

export const DEFAULT_WEB_HOST = '127.0.0.1';
export const DEFAULT_WEB_PORT = 8848;

export interface WebBinding {
  host: string;
  host_source: 'settings' | 'env' | 'default';
  port: number;
  port_source: 'settings' | 'env' | 'default';
  public_url: string | null;
  public_url_source: 'settings' | 'env' | 'none';
}

/** Where the Web binds: settings first, then CCCC_WEB_HOST / CCCC_WEB_PORT / CCCC_WEB_PUBLIC_URL, then defaults. */
export function webBinding(stored: StoredRemoteAccess, env: NodeJS.ProcessEnv): WebBinding {
  const envHost = env.CCCC_WEB_HOST?.trim();
  const envPort = Number(env.CCCC_WEB_PORT);
  const envUrl = env.CCCC_WEB_PUBLIC_URL?.trim();
  return {
    host: stored.web_host || envHost || DEFAULT_WEB_HOST,
    host_source: stored.web_host ? 'settings' : envHost ? 'env' : 'default',
    port: stored.web_port ?? (Number.isInteger(envPort) && envPort > 0 && envPort < 65536 ? envPort : DEFAULT_WEB_PORT),
    port_source: stored.web_port ? 'settings' : Number.isInteger(envPort) && envPort > 0 && envPort < 65536 ? 'env' : 'default',
    public_url: stored.web_public_url || envUrl || null,
    public_url_source: stored.web_public_url ? 'settings' : envUrl ? 'env' : 'none',
  };
}

export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h);
  return false;
}

/** True when starting this configuration exposes the Web beyond this machine. */
export function exposesRemotely(stored: StoredRemoteAccess, binding: WebBinding): boolean {
  if (stored.provider === 'tailscale' || stored.provider === 'reach') return true;
  if (stored.provider === 'manual') return !isLoopbackHost(binding.host) || binding.public_url !== null;
  return false;
}

export interface TokenFacts {
  readonly count: number;
  readonly adminCount: number;
}

/** The §8.17 rule: remote exposure needs an admin Access Token unless the unsafe override is set. */
export function adminRuleSatisfied(tokens: TokenFacts, env: NodeJS.ProcessEnv): boolean {
  return tokens.adminCount > 0 || env.CCCC_WEB_ALLOW_UNAUTHENTICATED === '1';
}
