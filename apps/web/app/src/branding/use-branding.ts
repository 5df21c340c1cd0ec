import { useEffect, useState } from 'react';
import { api, routeUrl } from '../api/client';

export interface AppBranding {
  readonly productName: string;
  readonly logoUrl: string | null;
}

const DEFAULT: AppBranding = { productName: 'CCCC', logoUrl: null };

/** The icon link of the page (`<link rel="icon">`), created when the page has none. */
function faviconLink(doc: Document): HTMLLinkElement {
  const existing = doc.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (existing) return existing;
  const link = doc.createElement('link');
  link.rel = 'icon';
  doc.head.appendChild(link);
  return link;
}

/**
 * The global branding (§8.2 branding_get) applied to the page: the product name in the title and
 * the top bar, the favicon and the logo served from the Web's branding asset route (with the
 * update time as a cache key). Defaults stay when nothing is set or the call fails.
 */
export function useBranding(): AppBranding {
  const [branding, setBranding] = useState<AppBranding>(DEFAULT);
  useEffect(() => {
    let live = true;
    api.branding().then(
      ({ branding: b }) => {
        if (!live) return;
        const version = encodeURIComponent(b.updated_at ?? '');
        document.title = b.product_name;
        if (b.favicon_asset_path) faviconLink(document).href = `${routeUrl('branding_asset', 'favicon')}?v=${version}`;
        setBranding({ productName: b.product_name, logoUrl: b.logo_icon_asset_path ? `${routeUrl('branding_asset', 'logo_icon')}?v=${version}` : null });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return branding;
}
