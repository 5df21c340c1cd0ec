import { z } from 'zod';
import type { ImPlatform } from './adapter.js';

/**
 * group.yaml:im, the group's provider configuration (§8.16). It never holds a token: tokens live
 * in state/secrets (see {@link ImSecrets}). Legacy token fields the reference may have written
 * (`bot_token`, `token`, `app_token`) are dropped on the next write.
 */
export const ImConfigDoc = z.looseObject({
  platform: z.enum(['telegram', 'slack', 'discord']),
  enabled: z.boolean().catch(false),
  forward_public_notify: z.boolean().catch(false),
});
export type ImConfigDoc = z.infer<typeof ImConfigDoc>;

/** The secret map stored for a group's bridge (`state/secrets/im/<group_id>.json`). */
export interface ImSecrets {
  readonly bot_token?: string;
  readonly app_token?: string;
}

export interface ImConfigPatch {
  readonly platform?: ImPlatform;
  readonly enabled?: boolean;
  readonly forward_public_notify?: boolean;
}

const LEGACY_SECRET_FIELDS = ['bot_token', 'token', 'app_token'];

export function parseImConfig(raw: unknown): ImConfigDoc | undefined {
  const parsed = ImConfigDoc.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The next group.yaml:im for a patch, or an error when there is no platform to configure (a
 * first configuration must name one).
 */
export function applyImConfigPatch(
  current: ImConfigDoc | undefined,
  patch: ImConfigPatch,
): { ok: true; config: ImConfigDoc } | { ok: false; error: string } {
  const platform = patch.platform ?? current?.platform;
  if (!platform) return { ok: false, error: 'platform is required for a first IM configuration' };
  const next: Record<string, unknown> = {
    ...(current ?? {}),
    platform,
    enabled: patch.enabled ?? current?.enabled ?? false,
    forward_public_notify: patch.forward_public_notify ?? current?.forward_public_notify ?? false,
  };
  for (const field of LEGACY_SECRET_FIELDS) delete next[field];
  return { ok: true, config: ImConfigDoc.parse(next) };
}

/** Whether the bridge should run: enabled, and holding the token(s) its platform needs. */
export function bridgeRunnable(config: ImConfigDoc | undefined, secrets: ImSecrets): config is ImConfigDoc {
  if (!config?.enabled || !secrets.bot_token) return false;
  return config.platform !== 'slack' || Boolean(secrets.app_token);
}
