import { encodeLineText, type AttachmentRefV1, type UpgradedConnection } from '@cccc/ipc-protocol';

export interface BlobUploadOptions {
  /** Exactly this many bytes are expected after the handshake. */
  readonly bytes: number;
  /** No byte for this long ends the upload with `upload_timeout` (nothing stored). */
  readonly idleMs: number;
  /** Stores the complete content; its result is the attachment record. */
  readonly store: (content: Buffer) => Promise<AttachmentRefV1>;
}

/**
 * The raw half of one `blob_upload`: collect exactly the declared bytes (bounded by the
 * handshake's size check), store them, answer with one outcome line and close. Anything else —
 * more bytes than declared, a client that goes quiet or away — stores nothing.
 */
export function runBlobUpload(connection: UpgradedConnection, options: BlobUploadOptions): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let done = false;
  const subscriptions: Disposable[] = [];
  let idle: NodeJS.Timeout | undefined;

  const finish = (outcome: Record<string, unknown> | null): void => {
    if (done) return;
    done = true;
    clearTimeout(idle);
    for (const s of subscriptions.splice(0)) s[Symbol.dispose]();
    chunks.length = 0;
    if (!outcome) return connection.close();
    connection.write(encodeLineText(outcome));
    // Close once the line is flushed (or soon after, if the client stopped reading).
    if (connection.pendingBytes === 0) setTimeout(() => connection.close(), 50).unref();
    else {
      subscriptions.push(connection.onDrain(() => connection.close()));
      setTimeout(() => connection.close(), 2000).unref();
    }
  };
  const fail = (code: string, message: string) => finish({ t: 'error', code, message });
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => fail('upload_timeout', `no upload bytes for ${options.idleMs} ms`), options.idleMs);
    idle.unref();
  };
  const complete = async () => {
    const content = Buffer.concat(chunks, received);
    clearTimeout(idle);
    try {
      finish({ t: 'stored', attachment: await options.store(content) });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      fail(typeof code === 'string' ? code : 'blob_store_failed', (error as Error).message);
    }
  };

  subscriptions.push(connection.onClose(() => finish(null)));
  subscriptions.push(
    connection.onData((chunk) => {
      if (done) return;
      received += chunk.length;
      if (received > options.bytes) return fail('blob_size_mismatch', `received more than the declared ${options.bytes} bytes`);
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (received === options.bytes) {
        void complete();
        return;
      }
      armIdle();
    }),
  );
  if (options.bytes === 0) void complete();
  else armIdle();
}
