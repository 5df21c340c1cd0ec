import { z } from 'zod';
import { AttachmentRefV1 } from '../kinds/chat.js';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg } from './shared.js';

/**
 * Per-file limit of an uploaded blob (the reference Web's 20 MiB). Declaring more is refused
 * with `file_too_large` before any byte is sent.
 */
export const MAX_BLOB_UPLOAD_BYTES = 20 * 1024 * 1024;

/**
 * blob_upload (extension, issue 8): the daemon-owned write of one uploaded file into the group
 * blob store (`groups/<gid>/state/blobs/<sha256>_<safe name>`), for HTTP ports that receive
 * files from a browser. The spec's Web flow is `message_upload_preflight`, then committing the
 * staged files to the blob store, then `send`/`reply` with the attachments; the spec names no op
 * for the middle step and says callers must not write `state/blobs/` themselves, so this op is
 * it. After the handshake the client writes exactly `bytes` raw bytes; the daemon answers with
 * one NDJSON line, `{t: "stored", attachment}` or `{t: "error", code, message}`, and closes. The
 * name only labels the blob: the stored file name is reduced to `[A-Za-z0-9._-]`.
 */
export const blob_upload = defineOp({
  summary: 'Upgrade to a raw upload of one file into the group blob store; answers with its attachment record.',
  upgrade: 'raw_stream',
  args: () => z.object({
    group_id: GroupIdArg,
    name: z.string().min(1).max(1024),
    bytes: z.number().int().nonnegative(),
    by: ByArg,
  }),
  result: () => z.object({ group_id: z.string(), max_bytes: z.number().int().positive() }),
});

/** The line that ends a blob_upload. */
export const BlobUploadOutcome = z.union([
  z.object({ t: z.literal('stored'), attachment: AttachmentRefV1 }),
  z.object({ t: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type BlobUploadOutcome = z.infer<typeof BlobUploadOutcome>;

/** A stored blob's file name: `<sha256>_<safe name>` (what blob_upload and send_files write). */
export const BLOB_NAME_PATTERN = /^[0-9a-f]{64}_[A-Za-z0-9._-]{1,120}$/;

/**
 * blob_read (extension, issue 8): download one stored blob of the group, by its file name under
 * `state/blobs/`. The handshake gives its size; exactly that many raw bytes follow, then the
 * daemon closes. Names that are not a stored blob's (`BLOB_NAME_PATTERN`) are `invalid_blob`;
 * a missing file, or anything that is not a regular file, is `blob_not_found`.
 */
export const blob_read = defineOp({
  summary: 'Upgrade to a raw download of one stored blob of the group.',
  upgrade: 'raw_stream',
  args: () => z.object({ group_id: GroupIdArg, name: z.string().min(1).max(256), by: ByArg }),
  result: () => z.object({ group_id: z.string(), name: z.string(), bytes: z.number().int().nonnegative() }),
});
