import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, unlink } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { FileLock, writeFileAtomic } from '@cccc/durable-fs';
import { dayFileName, decodeLatest, emptyLatest, expiredDayFiles, pruneLatest, recordHookEvent } from '@cccc/hook-fence/recorder';
import { readStdinCapped, type HookInput } from './activity-stdin.js';

// The IO shell of the session activity recorder: `cccc hook claude-activity`. Claude Code waits
// on it at every hook, so it must never block, steer or print: errors go to a log file only.

export const LATEST_FILE = 'activity-latest.json';
const LOCK_FILE = '.activity.lock';
const ERROR_LOG = 'hook-errors.log';
const NOFOLLOW_READ = constants.O_RDONLY | constants.O_NOFOLLOW;
export const NOFOLLOW_APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude');
}

export function activityDir(env: NodeJS.ProcessEnv): string {
  return env.CCCC_ACTIVITY_DIR || join(claudeConfigDir(env), 'activity');
}

class SymlinkRefused extends Error {
  constructor(path: string) {
    super(`refusing to write through symlink ${path}`);
  }
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function refuseSymlink(path: string): Promise<void> {
  if ((await lstatOrNull(path))?.isSymbolicLink()) throw new SymlinkRefused(path);
}

async function readNoFollow(path: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(path, NOFOLLOW_READ);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

async function appendNoFollow(path: string, text: string): Promise<void> {
  const handle = await open(path, NOFOLLOW_APPEND, 0o600);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

export interface RecordOptions {
  env: NodeJS.ProcessEnv;
  now?: Date;
}

/**
 * Record one hook payload. Throws on refusal or IO failure; the caller logs and still exits 0.
 * Bad input records nothing.
 */
export async function recordActivity(payloadText: string, options: RecordOptions): Promise<'recorded' | 'unchanged' | 'bad_input'> {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    return 'bad_input';
  }
  const env = options.env;
  const now = options.now ?? new Date();
  // Bad input touches nothing on disk, not even the directory or the lock.
  if ('error' in recordHookEvent(emptyLatest(), payload, now, '')) return 'bad_input';
  const dir = activityDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await refuseSymlink(dir);
  const lockPath = join(dir, LOCK_FILE);
  const latestPath = join(dir, LATEST_FILE);
  const dayPath = join(dir, dayFileName(now));
  for (const p of [lockPath, latestPath, dayPath]) await refuseSymlink(p);
  using _lock = await FileLock.acquire(lockPath, 30_000);
  const sandbox = env.CCCC_ACTIVITY_SANDBOX || hostname();
  const result = recordHookEvent(decodeLatest(await readNoFollow(latestPath)), payload, now, sandbox);
  if ('error' in result) return 'bad_input';
  // The atomic rename replaces a path, it never follows one; the checks above cover the lock and day file.
  await writeFileAtomic(latestPath, JSON.stringify(pruneLatest(result.latest, now)) + '\n', 0o600);
  if (result.line) await appendNoFollow(dayPath, JSON.stringify(result.line) + '\n');
  for (const name of expiredDayFiles(await readdir(dir), now)) await unlink(join(dir, name)).catch(() => undefined);
  return result.line ? 'recorded' : 'unchanged';
}

/** Best effort; a failure to log is itself ignored, never printed. */
export async function logHookError(env: NodeJS.ProcessEnv, error: unknown): Promise<void> {
  try {
    const dir = activityDir(env);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if ((await lstatOrNull(dir))?.isSymbolicLink()) return;
    const line = `${new Date().toISOString()} ${(error as Error)?.message ?? String(error)}\n`;
    await appendNoFollow(join(dir, ERROR_LOG), line);
  } catch {
    /* nowhere left to report it */
  }
}

/** The whole `cccc hook claude-activity` run: never throws, never prints. */
export async function runClaudeActivityHook(env: NodeJS.ProcessEnv, stdin: HookInput): Promise<void> {
  try {
    const text = await readStdinCapped(stdin);
    if (text === null) return await logHookError(env, new Error('payload over 1 MiB or unreadable'));
    const outcome = await recordActivity(text, { env });
    if (outcome === 'bad_input') await logHookError(env, new Error('bad hook payload'));
  } catch (error) {
    await logHookError(env, error);
  }
}
