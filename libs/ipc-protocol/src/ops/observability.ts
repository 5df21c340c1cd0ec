import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg } from './shared.js';

// §8.2 Observability and branding (global, user only for updates).

const Patch = z.record(z.string(), z.unknown());

export const ObservabilitySettings = z.record(z.string(), z.unknown());

export const BrandingSettings = z.object({
  product_name: z.string(),
  logo_icon_asset_path: z.string().optional(),
  favicon_asset_path: z.string().optional(),
  updated_at: z.string().optional(),
});
export type BrandingSettings = z.infer<typeof BrandingSettings>;

export const observability_get = defineOp({
  summary: 'Global observability settings (developer mode, log level, terminal/runtime display).',
  args: () => z.object({}),
  result: () => z.object({ observability: ObservabilitySettings }),
});

export const observability_update = defineOp({
  summary: 'Patch the global observability settings (user only).',
  args: () => z.object({ by: ByArg, patch: Patch }),
  result: () => z.object({ observability: ObservabilitySettings }),
});

export const branding_get = defineOp({
  summary: 'Global Web branding: product name and icon asset paths.',
  args: () => z.object({}),
  result: () => z.object({ branding: BrandingSettings }),
});

export const branding_update = defineOp({
  summary: 'Patch the global Web branding (user only; asset paths must stay inside the branding folder).',
  args: () => z.object({ by: ByArg, patch: Patch }),
  result: () => z.object({ branding: BrandingSettings }),
});
