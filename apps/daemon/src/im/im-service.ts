import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { authorizeGroupAction, loadGroup, readSecretMap, updateGroup, updateSecretFile, type HomeLayout } from '@cccc/groups';
import { applyImConfigPatch, bridgeRunnable, planLegacyImport, imError, ImErrorCodes, ImAuthority, parseImConfig, type ImConfigDoc, type ImConfigPatch, type ImSecrets } from '@cccc/im';
import type { ImConfigV1 } from '@cccc/ipc-protocol';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';

/** §8.16: the durable fields of the former Rust group.yaml:im_bridge (runtime diagnostics may stay). */
const LEGACY_DURABLE_KEYS = ['config', 'enabled', 'authorized', 'pending', 'subscribers'];

export interface ImServiceDeps {
  readonly layout: HomeLayout;
  readonly groups: Pick<GroupDocCache, 'get' | 'invalidate'>;
  readonly groupLocks: KeyedMutex;
}

export interface ImConfigUpdate extends ImConfigPatch {
  readonly bot_token?: string;
  readonly app_token?: string;
  readonly unset?: boolean;
}

/**
 * The daemon side of a group's IM bridge: its authority (§8.16, one per group, found only once
 * the group is known), its configuration in group.yaml:im and its tokens, stored like profile
 * secrets (0600 under state/secrets/im). Listeners hear about configuration changes so the bridge
 * supervisor can start, restart or stop the group's bridge.
 */
export class ImService {
  private readonly listeners = new Set<(groupId: string) => void>();

  constructor(private readonly deps: ImServiceDeps) {}

  private stateDir(groupId: string): string {
    return join(this.deps.layout.groupDir(groupId), 'state');
  }

  secretsPath(groupId: string): string {
    return join(this.deps.layout.secretsDir, 'im', `${groupId}.json`);
  }

  /** The group's authority; `group_not_found` for an unknown group. */
  authority(groupId: string): ImAuthority {
    this.deps.groups.get(groupId);
    return new ImAuthority(this.stateDir(groupId));
  }

  /** Mutations are the group's settings: user and foreman (permission_denied otherwise). */
  authorize(groupId: string, by: string | undefined): void {
    authorizeGroupAction(this.deps.layout, by, 'group.settings', groupId);
  }

  config(groupId: string): ImConfigDoc | undefined {
    return parseImConfig((this.deps.groups.get(groupId) as Record<string, unknown>).im);
  }

  /** Internal: the tokens, for the bridge only; never part of a read result. */
  secrets(groupId: string): ImSecrets {
    return readSecretMap(this.secretsPath(groupId));
  }

  view(groupId: string): ImConfigV1 | null {
    const config = this.config(groupId);
    if (!config) return null;
    const secrets = this.secrets(groupId);
    return {
      platform: config.platform,
      enabled: config.enabled,
      forward_public_notify: config.forward_public_notify,
      bot_token_present: Boolean(secrets.bot_token),
      app_token_present: Boolean(secrets.app_token),
    };
  }

  /** Whether the group's bridge should run: the group runs, IM is enabled, its token(s) stored. */
  bridgeWanted(groupId: string): boolean {
    try {
      return this.deps.groups.get(groupId).running && bridgeRunnable(this.config(groupId), this.secrets(groupId));
    } catch {
      return false; // a deleted or unreadable group runs no bridge
    }
  }

  /**
   * §8.16 one-way migration of what the reference left in group.yaml (tokens in `im`, the former
   * Rust `im_bridge` durable fields). Order: tokens into secrets, then the authority classes whose
   * canonical file is absent, and only after those commits the group document, so a crash in
   * between re-runs to the same result. Returns warnings for the log (never a token).
   */
  async migrateLegacy(groupId: string, env: NodeJS.ProcessEnv = process.env): Promise<{ migrated: boolean; warnings: readonly string[] }> {
    if (!existsSync(this.deps.layout.groupYamlPath(groupId))) return { migrated: false, warnings: [] };
    return this.deps.groupLocks.run(groupId, async () => {
      const doc = loadGroup(this.deps.layout, groupId) as unknown as Record<string, unknown>;
      const plan = planLegacyImport(doc, this.secrets(groupId), env);
      const hasAuthority = Object.keys(plan.authority).length > 0;
      if (!plan.changed && !hasAuthority) return { migrated: false, warnings: plan.warnings };
      try {
        if (Object.keys(plan.secrets).length > 0) {
          await updateSecretFile(this.deps.layout, this.secretsPath(groupId), (current) => ({ ...current, ...plan.secrets }) as Record<string, string>);
        }
        if (hasAuthority) await new ImAuthority(this.stateDir(groupId)).store.importMissing(plan.authority);
        await updateGroup(this.deps.layout, groupId, (g) => {
          const out = g as Record<string, unknown>;
          if (plan.im === undefined) delete out.im;
          else out.im = plan.im;
          if (plan.imBridge === undefined) delete out.im_bridge;
          else out.im_bridge = plan.imBridge;
        });
      } finally {
        this.deps.groups.invalidate(groupId);
      }
      return { migrated: true, warnings: plan.warnings };
    });
  }

  onConfigChange(listener: (groupId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Applies a configuration change. Everything is validated before the first write, so a
   * refused request changes nothing; an unset clears configuration, tokens and the three
   * authority files (§8.16 explicit unset).
   */
  async configure(groupId: string, by: string | undefined, update: ImConfigUpdate): Promise<ImConfigV1 | null> {
    this.authorize(groupId, by);
    await this.deps.groupLocks.run(groupId, async () => {
      try {
        if (update.unset) {
          await updateGroup(this.deps.layout, groupId, (g) => {
            const doc = g as Record<string, unknown>;
            delete doc.im;
            // The former Rust im_bridge durable fields are consumed too, so no later load restores them.
            const legacy = doc.im_bridge;
            if (legacy && typeof legacy === 'object' && !Array.isArray(legacy)) {
              const rest = { ...(legacy as Record<string, unknown>) };
              for (const key of LEGACY_DURABLE_KEYS) delete rest[key];
              if (Object.keys(rest).length === 0) delete doc.im_bridge;
              else doc.im_bridge = rest;
            }
          });
          await updateSecretFile(this.deps.layout, this.secretsPath(groupId), () => ({}));
          await new ImAuthority(this.stateDir(groupId)).store.clear();
          return;
        }
        const next = applyImConfigPatch(this.config(groupId), update);
        if (!next.ok) throw imError(ImErrorCodes.invalidRequest, next.error, { field: 'platform' });
        for (const name of ['bot_token', 'app_token'] as const) {
          const value = update[name];
          if (value !== undefined && value !== '' && (value.trim() !== value || /\s/.test(value))) {
            throw imError(ImErrorCodes.invalidRequest, `${name} must not contain whitespace`, { field: name });
          }
        }
        await updateGroup(this.deps.layout, groupId, (g) => {
          (g as Record<string, unknown>).im = next.config;
        });
        if (update.bot_token !== undefined || update.app_token !== undefined) {
          await updateSecretFile(this.deps.layout, this.secretsPath(groupId), (current) => {
            const out: Record<string, string> = { ...current };
            for (const name of ['bot_token', 'app_token'] as const) {
              const value = update[name];
              if (value === undefined) continue;
              if (value === '') delete out[name];
              else out[name] = value;
            }
            return out;
          });
        }
      } finally {
        this.deps.groups.invalidate(groupId);
      }
    });
    for (const listener of this.listeners) listener(groupId);
    return this.view(groupId);
  }
}
