import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg } from './shared.js';

// §8.17 remote access (manual and tailscale providers; membership reach and Connect are separate).

export const RemoteAccessState = z.looseObject({
  provider: z.enum(['off', 'manual', 'tailscale', 'reach']),
  mode: z.string(),
  require_access_token: z.boolean(),
  enabled: z.boolean(),
  status: z.enum(['stopped', 'running', 'not_installed', 'not_authenticated', 'misconfigured', 'error']),
  endpoint: z.string().nullish(),
  updated_at: z.string().nullish(),
  diagnostics: z.record(z.string(), z.unknown()).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  next_steps: z.array(z.string()).optional(),
});
export type RemoteAccessState = z.infer<typeof RemoteAccessState>;

const Result = z.object({ remote_access: RemoteAccessState });

export const remote_access_state = defineOp({
  summary: 'Global remote-access state: provider, desired/actual status, endpoint and diagnostics.',
  args: () => z.object({ by: ByArg }),
  result: () => Result,
});

export const remote_access_configure = defineOp({
  summary: 'Update the remote-access configuration (provider, mode, Web binding, public URL).',
  args: () => z.object({
    by: ByArg,
    provider: z.enum(['off', 'manual', 'tailscale']).optional(),
    mode: z.string().max(64).optional(),
    require_access_token: z.boolean().optional(),
    web_host: z.string().max(253).optional(),
    web_port: z.number().int().min(1).max(65535).optional(),
    web_public_url: z.string().max(2048).optional(),
  }),
  result: () => Result,
});

export const remote_access_start = defineOp({
  summary: 'Start remote access with the configured provider (needs an admin access token for remote exposure).',
  args: () => z.object({ by: ByArg }),
  result: () => Result,
});

export const remote_access_stop = defineOp({
  summary: 'Stop remote access.',
  args: () => z.object({ by: ByArg }),
  result: () => Result,
});
