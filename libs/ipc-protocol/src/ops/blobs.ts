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
  args: z.object({
    group_id: GroupIdArg,
    name: z.string().min(1).max(1024),
    bytes: z.number().int().nonnegative(),
    by: ByArg,
  }),
  result: z.object({ group_id: z.string(), max_bytes: z.number().int().positive() }),
});

/** The line that ends a blob_upload. */
export const BlobUploadOutcome = z.union([
  z.object({ t: z.literal('stored'), attachment: AttachmentRefV1 }),
  z.object({ t: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type BlobUploadOutcome = z.infer<typeof BlobUploadOutcome>;
