import type * as FsPromises from 'node:fs/promises';

/**
 * `node:fs/promises` with every `readFile` path pushed to `reads`: for a test's
 * `vi.mock('node:fs/promises', async (original) => recordingReads(await original(), reads))`,
 * proving which files the daemon reads (e.g. never its own write back).
 */
export function recordingReads(fs: typeof FsPromises, reads: string[]): typeof FsPromises {
  const readFile = ((path: Parameters<typeof fs.readFile>[0], ...rest: unknown[]) => {
    reads.push(String(path));
    return (fs.readFile as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFile;
  return { ...fs, readFile, default: { ...fs, readFile } } as typeof FsPromises;
}
