import { closeSync, constants, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
// Bundled inline into the hook file: ipc-protocol's endpoint discovery and one-shot exchange (a
// call's), which import nothing but node builtins, so the bundler keeps only them of `./call`
// (hook-main.test.ts checks that the bundle loads builtins only, and no zod); and the same bounded
// stdin read as the activity recorder's hook.
import { discoverEndpointWith, exchangeOneShot, type SocketAddress } from '@cccc/ipc-protocol/call';
import { readStdinCapped, type HookInput } from '../commands/activity-stdin.js';
import { missingIdentity, pickStatePayload, readStateAnswer, stateRequestLine, type StateHookRuntime } from './state-payload.js';

// IO shell of `cccc hook claude-state|codex-state`. The agent waits on this at every tool call,
// so it loads only node builtins, connects to the local daemon with a short timeout, sends one
// NDJSON request and waits (bounded) for the answer: the agent fires its hooks one after another,
// and waiting keeps the daemon committing them in that order. Never prints, always exits 0.

/** A local socket connects in well under a millisecond; longer means no daemon worth waiting on. */
export const HOOK_CONNECT_TIMEOUT_MS = 300;
/** Connect + answer budget: the daemon is local, but commits with fsync under load. */
export const HOOK_DAEMON_TIMEOUT_MS = 1_500;
const HOOK_LOG_MAX = 1024 * 1024;
const MAX_ANSWER = 64 * 1024;
const NOFOLLOW_APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

/** Append to `<CCCC_HOME>/daemon/hook.log` (rotated at 1 MiB); never throws, never prints. */
export function logHookError(home: string | undefined, message: string): void {
  if (!home) return;
  try {
    const dir = `${home}/daemon`;
    // Never recreate a CCCC_HOME that is gone (a late hook of a removed home): only its daemon dir.
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return;
    }
    const path = `${dir}/hook.log`;
    let size = 0;
    try {
      size = statSync(path).size;
    } catch {
      /* no log yet */
    }
    if (size > HOOK_LOG_MAX) renameSync(path, `${path}.1`);
    const fd = openSync(path, NOFOLLOW_APPEND, 0o600);
    try {
      writeSync(fd, `${new Date().toISOString()} ${message}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* nowhere left to report it */
  }
}

/** Daemon IPC v1 endpoint discovery (ipc-protocol's), as the address a socket connects to. */
export function hookEndpoint(home: string): SocketAddress {
  const endpoint = discoverEndpointWith(home, (path) => readFileSync(path, 'utf8'));
  return endpoint.transport === 'unix' ? { path: endpoint.path } : { host: endpoint.host, port: endpoint.port };
}

/** Send one request line and return the first answer line, within the connect/answer budgets. */
export async function exchangeLine(endpoint: SocketAddress, line: string, connectMs = HOOK_CONNECT_TIMEOUT_MS, totalMs = HOOK_DAEMON_TIMEOUT_MS): Promise<string> {
  return exchangeOneShot(endpoint, line, { op: 'runtime_hook_event', connectTimeoutMs: connectMs, timeoutMs: totalMs, maxLineBytes: MAX_ANSWER });
}

/**
 * `cccc hook claude-state|codex-state`: hand the identity and label fields of one payload to the
 * daemon (the single writer of hook state) through `runtime_hook_event`.
 */
export async function runStateHook(runtime: StateHookRuntime, env: NodeJS.ProcessEnv, stdin: HookInput): Promise<void> {
  const home = env.CCCC_HOME;
  try {
    const missing = missingIdentity(env);
    if (missing.length > 0) return logHookError(home, `${runtime}-state: missing ${missing.join(', ')}`);
    const text = await readStdinCapped(stdin);
    if (text === null) return logHookError(home, `${runtime}-state: payload over 1 MiB or unreadable`);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return logHookError(home, `${runtime}-state: payload is not JSON`);
    }
    const picked = pickStatePayload(raw);
    if ('error' in picked) return logHookError(home, `${runtime}-state: bad payload: ${picked.error}`);
    const request = stateRequestLine(runtime, env, picked.payload);
    if ('error' in request) return logHookError(home, `${runtime}-state: bad identity: ${request.error}`);
    const answer = readStateAnswer(await exchangeLine(hookEndpoint(home!), request.line));
    if (!answer.accepted) logHookError(home, `${runtime}-state: ${String(picked.payload.hook_event_name)} rejected: ${answer.reason}`);
  } catch (error) {
    logHookError(home, `${runtime}-state: ${(error as Error)?.message ?? String(error)}`);
  }
}
