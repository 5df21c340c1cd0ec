import { routeUrl } from '../api/client';
import type { Attachment } from './message';
import { useT } from '../i18n/I18nProvider';

/** Raster types the browser shows inline; SVG, HTML and the rest are downloads (see routes/blobs.ts). */
const PREVIEW_TYPES = /^image\/(png|jpeg|gif|webp)$/;
const PREVIEW_EXT = /\.(png|jpe?g|gif|webp)$/i;

/** A blob path `state/blobs/<sha256>_<name>` is served by name under the group. */
function blobHref(groupId: string, path: string): string {
  return routeUrl('blob', groupId, path.split('/').pop() ?? path);
}

export function formatBytes(n: number | undefined): string {
  if (n === undefined) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

const isPreviewable = (a: Attachment) => (a.mime_type ? PREVIEW_TYPES.test(a.mime_type) : a.kind === 'image' && PREVIEW_EXT.test(a.path));

/** Images as thumbnails that open the full picture; other files as cards that download. */
export function Attachments({ groupId, attachments }: { groupId: string; attachments: readonly Attachment[] }) {
  const t = useT();
  return (
    <ul className="msg-attachments" aria-label={t('chat.attachments')}>
      {attachments.map((a) => {
        const href = blobHref(groupId, a.path);
        const name = a.title ?? a.path.split('/').pop()?.replace(/^[0-9a-f]{64}_/, '') ?? a.path;
        return isPreviewable(a) ? (
          <li key={a.path} className="att att-image">
            <a href={href} target="_blank" rel="noopener noreferrer" title={name}>
              <img src={href} alt={name} loading="lazy" />
            </a>
            <span className="att-caption">
              {name} <span className="muted">{formatBytes(a.bytes)}</span>
            </span>
          </li>
        ) : (
          <li key={a.path} className="att att-file">
            <span className="att-icon" aria-hidden="true">
              {a.kind === 'text' ? '≡' : '⎘'}
            </span>
            <a href={href} target="_blank" rel="noopener noreferrer">
              {name}
            </a>
            <span className="muted">{formatBytes(a.bytes)}</span>
          </li>
        );
      })}
    </ul>
  );
}
