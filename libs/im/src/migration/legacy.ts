import { AuthorizedEntry, parseEntries, PendingEntry, SubscriberEntry, type ImAuthorityState } from '../authority/state.js';
import { threadKey } from '../authority/thread-id.js';
import type { ImSecrets } from '../config.js';

/**
 * §8.16 one-way migration, pure: from a group document that may still carry what the reference
 * wrote (tokens or token env names in `im`, the former Rust `im_bridge` durable fields) to the
 * canonical classes. The IO shell commits the tokens and authority files first and only then
 * writes the group document, so a crash in between re-runs to the same result (canonical wins).
 */

/** The durable fields of the former Rust group.yaml:im_bridge; anything else there is runtime diagnostics. */
export const LEGACY_BRIDGE_DURABLE_KEYS = ['config', 'enabled', 'authorized', 'pending', 'subscribers'] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Token fields the reference read from group.yaml:im: value fields first, then env-name fields. */
const TOKEN_SOURCES = {
  bot_token: { values: ['bot_token', 'token'], envs: ['bot_token_env', 'token_env'] },
  app_token: { values: ['app_token'], envs: ['app_token_env'] },
} as const;

export interface LegacyImportPlan {
  /** The next group.yaml:im, or undefined when it has none. */
  readonly im: Obj | undefined;
  /** What remains of group.yaml:im_bridge, or undefined to delete it. */
  readonly imBridge: Obj | undefined;
  /** Tokens to store in the secrets file (only those not stored there already). */
  readonly secrets: ImSecrets;
  /** Authority classes found in the legacy fields (the shell writes each only if its file is absent). */
  readonly authority: Partial<ImAuthorityState>;
  /** Human-readable notes for the daemon log: never a token. */
  readonly warnings: readonly string[];
  /** Whether anything is to be written at all. */
  readonly changed: boolean;
}

/** A legacy class as canonical entries: a keyed map as the files hold, or a list of records with chat_id. */
function legacyEntries<T>(raw: unknown, schema: Parameters<typeof parseEntries<T>>[1]): Record<string, T> | undefined {
  // An entry without thread_id means no thread (0); the canonical schemas require the field.
  const withThread = (item: Obj): Obj => ({ ...item, thread_id: item['thread_id'] ?? 0 });
  const keyed: Obj = {};
  if (isObj(raw)) {
    for (const [key, item] of Object.entries(raw)) if (isObj(item)) keyed[key] = withThread(item);
  } else if (Array.isArray(raw)) {
    for (const item of raw) {
      if (!isObj(item)) continue;
      const key = threadKey(String(item['chat_id'] ?? ''), item['thread_id']);
      if (key !== '') keyed[key] = withThread(item);
    }
  } else {
    return undefined;
  }
  return parseEntries(keyed, schema);
}

export function planLegacyImport(group: Obj, stored: ImSecrets, env: NodeJS.ProcessEnv): LegacyImportPlan {
  const warnings: string[] = [];
  const legacy = isObj(group['im_bridge']) ? group['im_bridge'] : undefined;
  const current = isObj(group['im']) ? group['im'] : undefined;
  // Canonical wins: the legacy config is used only when group.yaml:im names no platform.
  let im: Obj | undefined = current ? { ...current } : undefined;
  if (!str(im?.['platform']) && legacy && isObj(legacy['config']) && str(legacy['config']['platform'])) {
    im = { ...legacy['config'] };
    if (im['enabled'] === undefined && typeof legacy['enabled'] === 'boolean') im['enabled'] = legacy['enabled'];
  }

  const secrets: { bot_token?: string; app_token?: string } = {};
  if (im) {
    for (const [name, source] of Object.entries(TOKEN_SOURCES) as [keyof ImSecrets, (typeof TOKEN_SOURCES)[keyof ImSecrets]][]) {
      let value = '';
      let pendingEnv: string | undefined;
      for (const field of source.values) value ||= str(im[field]);
      for (const field of source.envs) {
        const named = str(im[field]);
        if (named === '' || value !== '') continue;
        if (!ENV_NAME.test(named)) value = named; // the reference's "raw token pasted into *_env" case
        else if (str(env[named]) !== '') value = str(env[named]);
        else pendingEnv = `${field}=${named}`;
      }
      if (value !== '' && !stored[name]) secrets[name] = value;
      else if (value !== '') warnings.push(`group.yaml:im ${name}: a token is already stored in secrets; the one in group.yaml is retired`);
      if (pendingEnv !== undefined && value === '') {
        // Not importable now: kept in group.yaml:im (never dropped silently), retried at the next start.
        warnings.push(`group.yaml:im ${pendingEnv} is not set in the daemon's environment; set it and restart, or use cccc im config`);
        continue;
      }
      for (const field of [...source.values, ...source.envs]) delete im[field];
    }
  }

  const authority: Partial<ImAuthorityState> = {};
  if (legacy) {
    const pending = legacyEntries(legacy['pending'], PendingEntry);
    const authorized = legacyEntries(legacy['authorized'], AuthorizedEntry);
    const subscribers = legacyEntries(legacy['subscribers'], SubscriberEntry);
    if (pending) authority.pending = pending;
    if (authorized) authority.authorized = authorized;
    if (subscribers) authority.subscribers = subscribers;
  }

  let imBridge: Obj | undefined = legacy;
  if (legacy) {
    const rest = { ...legacy };
    for (const key of LEGACY_BRIDGE_DURABLE_KEYS) delete rest[key];
    imBridge = Object.keys(rest).length > 0 ? rest : undefined;
  }
  const changed =
    JSON.stringify(im) !== JSON.stringify(current) || JSON.stringify(imBridge) !== JSON.stringify(legacy) || Object.keys(secrets).length > 0;
  return { im, imBridge, secrets, authority, warnings, changed };
}
