import { IpcError, MAX_BLOB_UPLOAD_BYTES, StreamUpgrade, type OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';
import { runBlobUpload } from '../messaging/blob-upload-session.js';
import { storeBlobs } from '../messaging/blobs.js';
import { assertKnownSender } from '../messaging/outgoing.js';
import { principalOf } from '../messaging/principal.js';

const UPLOAD_IDLE_MS = 30_000;

/**
 * blob_upload (issue 8 extension): the daemon stays the only writer of `state/blobs/`. Group,
 * sender and size are checked before the upgrade, so a refused upload sends no byte and stores
 * nothing; the stored name is content-addressed and reduced to safe characters (blobs.ts).
 */
export function registerBlobOps(router: OpRouter, kernel: Kernel): void {
  router.register('blob_upload', (args) => {
    const group = kernel.groups.get(args.group_id);
    assertKnownSender(group, principalOf(args.by));
    if (args.bytes > MAX_BLOB_UPLOAD_BYTES) {
      throw new IpcError('file_too_large', `a file may have at most ${MAX_BLOB_UPLOAD_BYTES} bytes`, {
        limit: MAX_BLOB_UPLOAD_BYTES,
        bytes: args.bytes,
      });
    }
    const groupDir = kernel.layout.groupDir(args.group_id);
    return new StreamUpgrade({ group_id: args.group_id, max_bytes: MAX_BLOB_UPLOAD_BYTES }, (connection) =>
      runBlobUpload(connection, {
        bytes: args.bytes,
        idleMs: UPLOAD_IDLE_MS,
        store: async (content) => (await storeBlobs(groupDir, [{ name: args.name, bytes: content }]))[0]!,
      }),
    );
  });
}
