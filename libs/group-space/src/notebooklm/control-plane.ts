import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { errorShape, spaceError } from '../errors.js';
import { nowIso } from '../ids.js';
import type { ProviderState } from '../provider.js';
import { validateAuthJson } from './auth-json.js';
import { NotebookLmCredentialStore, type CredentialView } from './credential-store.js';

/** Why NotebookLM cannot be driven here: it has no public API and this build ships no wire client. */
export const NO_WIRE_CLIENT = 'the NotebookLM wire client (an unofficial cookie-based client) is not part of this build';

interface HealthRecord {
  last_health_at: string | null;
  last_error: string | null;
  /** The error code of the last health check, for the mode. */
  last_error_code: string | null;
}

export type HealthResult = {
  provider: 'notebooklm';
  healthy: boolean;
  health: Record<string, unknown>;
  error?: { code: string; message: string };
  provider_state: ProviderState;
  credential: CredentialView;
};

export type AuthView = {
  provider: 'notebooklm';
  provider_state: ProviderState;
  credential: CredentialView;
  auth: { provider: 'notebooklm'; state: 'idle'; phase: string; delivery: ''; message: string };
};

/** Only the user manages provider credentials and health (§8.18: `by` user-only). */
export function assertUser(by: string | undefined): void {
  const who = by === undefined || by === '' ? 'user' : by;
  if (who !== 'user') throw spaceError('permission_denied', 'only the user manages Group Space provider credentials', { by: who });
}

/** Credential ops name NotebookLM only; the local provider has no credential. */
function assertNotebookLm(provider: string | undefined): void {
  if (provider !== undefined && provider !== 'notebooklm') {
    throw spaceError('invalid_request', `provider ${provider} has no credential or sign-in (notebooklm only)`, { field: 'provider' });
  }
}

/**
 * NotebookLM's control plane: credential status and update, health check and auth state, all
 * honest. Without a credential the provider is `disabled`; with one it is `degraded` (valid or
 * not, nothing here can reach NotebookLM), never `active` and never `write_ready`.
 */
export class NotebookLmControlPlane {
  readonly credentials: NotebookLmCredentialStore;
  private readonly healthFile: string;

  constructor(home: string, env: NodeJS.ProcessEnv = process.env) {
    this.credentials = new NotebookLmCredentialStore(home, env);
    this.healthFile = join(home, 'state', 'space', 'providers', 'notebooklm.json');
  }

  private health(): HealthRecord {
    try {
      const doc = JSON.parse(readFileSync(this.healthFile, 'utf8')) as Partial<HealthRecord>;
      return { last_health_at: doc.last_health_at ?? null, last_error: doc.last_error ?? null, last_error_code: doc.last_error_code ?? null };
    } catch {
      return { last_health_at: null, last_error: null, last_error_code: null };
    }
  }

  private writeHealth(record: HealthRecord): void {
    writeFileAtomicSync(this.healthFile, JSON.stringify(record, null, 2), 0o644);
  }

  state(): ProviderState {
    const configured = this.credentials.view().configured;
    const h = this.health();
    return {
      provider: 'notebooklm',
      enabled: configured,
      mode: configured ? 'degraded' : 'disabled',
      real_adapter_enabled: false,
      stub_adapter_enabled: false,
      auth_configured: configured,
      write_ready: false,
      readiness_reason: configured ? 'wire_client_unavailable' : 'auth_not_configured',
      last_health_at: h.last_health_at,
      last_error: configured ? h.last_error : null,
    };
  }

  credentialStatus(args: { provider?: string; by?: string }): { provider: 'notebooklm'; credential: CredentialView } {
    assertNotebookLm(args.provider);
    assertUser(args.by);
    return { provider: 'notebooklm', credential: this.credentials.view() };
  }

  async updateCredential(args: { provider?: string; by?: string; auth_json?: string; clear?: boolean }): Promise<{ provider: 'notebooklm'; credential: CredentialView }> {
    assertNotebookLm(args.provider);
    assertUser(args.by);
    if (args.clear === true) {
      await this.credentials.clear();
    } else {
      if (args.auth_json === undefined) throw spaceError('invalid_request', 'auth_json or clear=true is required', { field: 'auth_json' });
      validateAuthJson(args.auth_json);
      await this.credentials.write(args.auth_json);
    }
    // A changed credential invalidates any verified state until the next health check.
    this.writeHealth({ last_health_at: null, last_error: null, last_error_code: null });
    return { provider: 'notebooklm', credential: this.credentials.view() };
  }

  /** Validate the credential in force (or a candidate, never stored) and record the outcome. */
  async healthCheck(args: { provider?: string; by?: string; auth_json?: string }): Promise<HealthResult> {
    assertNotebookLm(args.provider);
    assertUser(args.by);
    const candidate = args.auth_json !== undefined;
    const material = candidate ? args.auth_json : this.credentials.effective();
    let error: { code: string; message: string };
    let cookies = 0;
    if (material === undefined) {
      error = { code: 'space_provider_not_configured', message: 'no NotebookLM credential: set auth_json or CCCC_NOTEBOOKLM_AUTH_JSON' };
    } else {
      try {
        cookies = validateAuthJson(material).cookieCount;
        error = { code: 'capability_unavailable', message: NO_WIRE_CLIENT };
      } catch (err) {
        error = errorShape(err);
      }
    }
    const health = { checked_at: nowIso(), candidate, auth_json_valid: cookies > 0, cookie_count: cookies, wire_client: false };
    if (!candidate) this.writeHealth({ last_health_at: health.checked_at, last_error: error.message, last_error_code: error.code });
    return { provider: 'notebooklm', healthy: false, health, error, provider_state: this.state(), credential: this.credentials.view() };
  }

  /** `action=status` projects the durable state; start/cancel/disconnect need a browser surface this daemon does not serve. */
  auth(args: { provider?: string; by?: string; action?: string }): AuthView {
    assertNotebookLm(args.provider);
    assertUser(args.by);
    const action = args.action ?? 'status';
    if (action !== 'status') {
      throw spaceError('capability_unavailable', `provider auth ${action} needs a browser sign-in surface this daemon does not serve (space_provider_auth_browser_attach is false)`, { action });
    }
    return {
      provider: 'notebooklm',
      provider_state: this.state(),
      credential: this.credentials.view(),
      auth: { provider: 'notebooklm', state: 'idle', phase: '', delivery: '', message: 'set auth_json through group_space_provider_credential_update' },
    };
  }
}
