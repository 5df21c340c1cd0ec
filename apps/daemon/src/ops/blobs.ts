import { assertKnownSender, principalOf } from '@cccc/groups';
import { lstat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { BLOB_NAME_PATTERN, IpcError, MAX_BLOB_UPLOAD_BYTES, StreamUpgrade, type OpRouter, type UpgradedConnection } from '@cccc/ipc-protocol';
import { runBlobUpload } from '../messaging/blob-upload-session.js';
import { storeBlobs } from '../messaging/blobs.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import type { StoreDeps } from '../kernel/store-deps.js';

const UPLOAD_IDLE_MS = 30_000;

export type BlobOpsDeps = Pick<StoreDeps, 'layout' | 'groups'>;

/**
 * blob_upload (issue 8 extension): the daemon stays the only writer of `state/blobs/`. Group,
 * sender and size are checked before the upgrade, so a refused upload sends no byte and stores
 * nothing; the stored name is content-addressed and reduced to safe characters (blobs.ts).
 */
export function registerBlobOps(router: OpRouter, deps: BlobOpsDeps): void {
  router.register('blob_upload', (args) => {
    const group = deps.groups.get(args.group_id);
    assertKnownSender(group, principalOf(args.by));
    if (args.bytes > MAX_BLOB_UPLOAD_BYTES) {
      throw daemonError(DaemonErrorCodes.fileTooLarge, `a file may have at most ${MAX_BLOB_UPLOAD_BYTES} bytes`, {
        limit: MAX_BLOB_UPLOAD_BYTES,
        bytes: args.bytes,
      });
    }
    const groupDir = deps.layout.groupDir(args.group_id);
    return new StreamUpgrade({ group_id: args.group_id, max_bytes: MAX_BLOB_UPLOAD_BYTES }, (connection) =>
      runBlobUpload(connection, {
        bytes: args.bytes,
        idleMs: UPLOAD_IDLE_MS,
        store: async (content) => (await storeBlobs(groupDir, [{ name: args.name, bytes: content }]))[0]!,
      }),
    );
  });

  /**
   * blob_read: only a stored blob's own name (`<sha256>_<safe name>`, no separators) is looked
   * up, and only a regular file (never a symlink) directly in `state/blobs/` is served.
   */
  router.register('blob_read', async (args) => {
    deps.groups.get(args.group_id);
    if (!BLOB_NAME_PATTERN.test(args.name)) {
      throw daemonError(DaemonErrorCodes.invalidBlob, 'not a stored blob name (<sha256>_<name>)', { name: args.name });
    }
    const path = join(deps.layout.groupDir(args.group_id), 'state', 'blobs', args.name);
    const st = await lstat(path).catch(() => null);
    if (!st?.isFile()) throw daemonError(DaemonErrorCodes.blobNotFound, `no blob ${args.name} in this group`, { name: args.name });
    return new StreamUpgrade({ group_id: args.group_id, name: args.name, bytes: st.size }, (connection) => sendFile(connection, path, st.size));
  });
}

/** Stream exactly `size` bytes of the file with backpressure, then close. */
function sendFile(connection: UpgradedConnection, path: string, size: number): void {
  const stream = createReadStream(path, { start: 0, end: Math.max(0, size - 1), highWaterMark: 256 * 1024 });
  const closed = connection.onClose(() => stream.destroy());
  if (size === 0) {
    stream.destroy();
    connection.close();
    return;
  }
  stream.on('data', (chunk) => {
    if (!connection.write(chunk as Buffer)) {
      stream.pause();
      const d = connection.onDrain(() => {
        d[Symbol.dispose]();
        stream.resume();
      });
    }
  });
  stream.on('end', () => {
    closed[Symbol.dispose]();
    // Let the last bytes flush before closing the socket.
    if (connection.pendingBytes === 0) connection.close();
    else {
      const d = connection.onDrain(() => {
        d[Symbol.dispose]();
        connection.close();
      });
    }
  });
  stream.on('error', () => connection.close());
}
