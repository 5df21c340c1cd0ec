import { createHash } from 'node:crypto';
import { existsSync, lstatSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { writeFileAtomic } from '@cccc/durable-fs';
import { BLOB_NAME_PATTERN, IpcError, type AttachmentRefV1 } from '@cccc/ipc-protocol';
import { daemonError, DaemonErrorCodes } from '../errors.js';

const MIME: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.ts': 'text/plain',
  '.js': 'text/javascript',
  '.py': 'text/x-python',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

function kindOf(mime: string, bytes: Buffer): 'text' | 'image' | 'file' {
  if (mime.startsWith('image/')) return 'image';
  if (bytes.includes(0)) return 'file';
  try {
    utf8.decode(bytes);
    return 'text';
  } catch {
    return 'file';
  }
}

/** A blob file name keeps only safe characters of the original name. */
function safeName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_').slice(0, 120);
  return cleaned || 'file';
}

export interface BlobSource {
  readonly name: string;
  readonly bytes: Buffer;
}

/** The attachment record a blob will get, computed without writing anything. */
export function describeBlob(source: BlobSource): AttachmentRefV1 & { path: string } {
  const sha256 = createHash('sha256').update(source.bytes).digest('hex');
  const mime = MIME[extname(source.name).toLowerCase()] ?? 'application/octet-stream';
  // The title is display-only, but it comes from a browser: last path segment (either slash), no
  // control characters, bounded.
  const title = basename(source.name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255) || 'file';
  return {
    kind: kindOf(mime, source.bytes),
    path: `state/blobs/${sha256}_${safeName(title)}`,
    title,
    mime_type: mime,
    bytes: source.bytes.length,
    sha256,
  };
}

/** Store content-addressed blobs under `groups/<gid>/state/blobs/` (idempotent per content). */
export async function storeBlobs(groupDir: string, sources: readonly BlobSource[]): Promise<AttachmentRefV1[]> {
  const out: AttachmentRefV1[] = [];
  for (const source of sources) {
    const ref = describeBlob(source);
    const target = join(groupDir, ref.path);
    if (!existsSync(target)) await writeFileAtomic(target, source.bytes, 0o644);
    out.push(ref);
  }
  return out;
}

/**
 * Attachment records on send/reply must name blobs this daemon stored (`state/blobs/<sha256>_
 * <name>`, a regular file): callers cannot manufacture records pointing anywhere else (§8.6
 * send_files). Checked before anything is written.
 */
export function assertStoredAttachments(groupDir: string, attachments: readonly AttachmentRefV1[] | undefined): void {
  (attachments ?? []).forEach((a, index) => {
    const name = a.path.startsWith('state/blobs/') ? a.path.slice('state/blobs/'.length) : '';
    let ok = BLOB_NAME_PATTERN.test(name);
    if (ok) {
      try {
        ok = lstatSync(join(groupDir, 'state', 'blobs', name)).isFile();
      } catch {
        ok = false;
      }
    }
    if (!ok) {
      throw daemonError(DaemonErrorCodes.invalidAttachment, `attachment ${index} is not a stored blob of this group (upload it with blob_upload)`, {
        field: `attachments.${index}.path`,
        path: a.path,
      });
    }
  });
}
