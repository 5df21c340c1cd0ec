// Shared by every `cccc hook` entry: one payload from stdin, bounded in size and time.

export const MAX_HOOK_PAYLOAD = 1024 * 1024;

/** Read at most 1 MiB from stdin; a terminal or a silent pipe yields what came within `timeoutMs`. */
export function readStdinCapped(stdin: NodeJS.ReadStream, limit = MAX_HOOK_PAYLOAD, timeoutMs = 30_000): Promise<string | null> {
  if (stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: string | null): void => {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.pause();
      resolve(value);
    };
    const timer = setTimeout(() => finish(Buffer.concat(chunks).toString('utf8')), timeoutMs);
    timer.unref();
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(null);
      chunks.push(chunk);
    });
    stdin.once('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    stdin.once('error', () => finish(null));
  });
}
