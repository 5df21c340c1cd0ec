import { chmodSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FileLock, writeFileAtomicSync } from '@cccc/durable-fs';
import { spaceError } from '../errors.js';

export const NOTEBOOKLM = 'notebooklm';
/** The secret's key, which is also the environment variable that overrides the store. */
export const NOTEBOOKLM_AUTH_KEY = 'CCCC_NOTEBOOKLM_AUTH_JSON';

export type CredentialView = {
  provider: 'notebooklm';
  key: string;
  configured: boolean;
  source: 'none' | 'store' | 'env';
  env_configured: boolean;
  store_configured: boolean;
  updated_at: string | null;
  masked_value: string | null;
};

/**
 * NotebookLM credentials stored like profile secrets: `state/secrets/space_providers/notebooklm.json`
 * (a `{key: value}` map), directories 0700, file 0600, atomic replace under the secrets lock.
 * The value is write-only: nothing here returns it except `effective()` for the adapter.
 */
export class NotebookLmCredentialStore {
  readonly dir: string;
  readonly file: string;
  private readonly lockPath: string;

  constructor(
    readonly home: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    const secrets = join(home, 'state', 'secrets');
    this.dir = join(secrets, 'space_providers');
    this.file = join(this.dir, `${NOTEBOOKLM}.json`);
    this.lockPath = join(secrets, '.secrets.lock');
  }

  private stored(): string | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      const map = JSON.parse(text) as Record<string, unknown>;
      const v = map[NOTEBOOKLM_AUTH_KEY];
      return typeof v === 'string' && v !== '' ? v : undefined;
    } catch {
      // A malformed file is reported by name only; its content may be secret.
      throw spaceError('io_error', `credential file is malformed: ${this.file}`);
    }
  }

  private envValue(): string | undefined {
    const v = this.env[NOTEBOOKLM_AUTH_KEY];
    return typeof v === 'string' && v.trim() !== '' ? v : undefined;
  }

  /** The credential in force (env first), for the adapter only. Never put it in a result. */
  effective(): string | undefined {
    return this.envValue() ?? this.stored();
  }

  view(): CredentialView {
    const env = this.envValue() !== undefined;
    const store = this.stored() !== undefined;
    let updated: string | null = null;
    if (store) updated = statSync(this.file).mtime.toISOString();
    return {
      provider: 'notebooklm',
      key: NOTEBOOKLM_AUTH_KEY,
      configured: env || store,
      source: env ? 'env' : store ? 'store' : 'none',
      env_configured: env,
      store_configured: store,
      updated_at: updated,
      masked_value: env || store ? '******' : null,
    };
  }

  private ensureDirs(): void {
    for (const d of [join(this.home, 'state', 'secrets'), this.dir]) {
      mkdirSync(d, { recursive: true, mode: 0o700 });
      chmodSync(d, 0o700);
    }
  }

  async write(authJson: string): Promise<void> {
    this.ensureDirs();
    const lock = await FileLock.acquire(this.lockPath);
    try {
      writeFileAtomicSync(this.file, JSON.stringify({ [NOTEBOOKLM_AUTH_KEY]: authJson }, null, 2), 0o600);
      chmodSync(this.file, 0o600);
    } finally {
      lock.release();
    }
  }

  async clear(): Promise<void> {
    this.ensureDirs();
    const lock = await FileLock.acquire(this.lockPath);
    try {
      rmSync(this.file, { force: true });
    } finally {
      lock.release();
    }
  }
}
