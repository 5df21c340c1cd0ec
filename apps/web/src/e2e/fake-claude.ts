import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import { CCCC_BIN } from '../testing/harness.js';

// Test-only helpers for the actors / terminal / activity e2e files: a group with an attached
// scope over the real Web API, and the fake agent installed under the name `claude` so the
// daemon injects the real Claude-style hooks (`cccc hook claude-state`) into its launch.

export async function webApi<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { ok: boolean; result?: T; error?: { code: string; message: string } };
  if (!envelope.ok) throw new Error(`${method} ${path}: ${envelope.error?.code} ${envelope.error?.message}`);
  return envelope.result as T;
}

/** A `claude` executable that is the scripted fake agent (a Claude-Code-like TUI with hooks). */
export function installFakeClaude(home: string): string {
  return installFakeAgentAs(join(home, 'bin'), 'claude');
}

/** A fresh group with a temp directory attached as its scope (actors need one to start). */
export async function groupWithScope(baseUrl: string, home: string, title: string): Promise<string> {
  const { group_id } = await webApi<{ group_id: string }>(baseUrl, 'POST', '/groups', { title });
  const scope = join(home, 'scopes', group_id);
  mkdirSync(scope, { recursive: true });
  await webApi(baseUrl, 'POST', `/groups/${group_id}/attach`, { path: scope });
  return group_id;
}

const hookKey = (gid: string, aid: string) => createHash('sha256').update(`${gid}\0${aid}`).digest('hex');

/** The running launch's hook identity, as the daemon committed it (token and session). */
export function hookIdentity(home: string, gid: string, aid: string): { launch_token: string; session_id: string } | null {
  const file = join(home, 'daemon', 'claude-hook-state', `${hookKey(gid, aid)}.json`);
  if (!existsSync(file)) return null;
  const state = JSON.parse(readFileSync(file, 'utf8')) as { launch_token?: string; session_id?: string | null };
  return state.launch_token && state.session_id ? { launch_token: state.launch_token, session_id: state.session_id } : null;
}

/**
 * Fire one Claude hook event exactly as Claude Code would: the built `cccc hook claude-state`
 * with the payload on stdin and the actor's launch environment. The daemon fences it like any
 * other hook (launch token, session).
 */
export function fireClaudeHook(home: string, gid: string, aid: string, token: string, payload: Record<string, unknown>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CCCC_BIN, 'hook', 'claude-state'], {
      env: { ...process.env, CCCC_HOME: home, CCCC_GROUP_ID: gid, CCCC_ACTOR_ID: aid, CCCC_HOOK_LAUNCH_TOKEN: token },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(JSON.stringify(payload));
  });
}
