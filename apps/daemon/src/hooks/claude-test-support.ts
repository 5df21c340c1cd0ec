import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import type { runtimeFixture } from '../runtime/runtime-test-support.js';
import { setHookLauncherForTests } from './hook-launch.js';

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;

/** The built CLI entry the injected hooks run (`cccc hook claude-state`). */
export const BUILT_CLI = resolve(import.meta.dirname, '../../../cli/bin/cccc.js');

/** In a test file: inject hooks that run the built CLI with this Node, for every test in it. */
export function useBuiltHookLauncher(): void {
  beforeAll(() => setHookLauncherForTests({ node: process.execPath, cliEntry: BUILT_CLI }));
  afterAll(() => setHookLauncherForTests(undefined));
}

/**
 * A group with one actor, `peer1`, whose command is the fake agent installed as `claude`: the
 * daemon launches it with Claude's injected hooks, and its lifecycle runs the real hook path.
 */
export async function claudeGroup(fx: Fx, opts: { title?: string; env?: Record<string, string> } = {}): Promise<string> {
  const { group_id } = await fx.client.call('group_create', { title: opts.title ?? 'claude' });
  const scope = join(fx.home, 'scopes', group_id);
  mkdirSync(scope, { recursive: true });
  await fx.client.call('attach', { path: scope, group_id });
  const command = [installFakeAgentAs(join(fx.home, 'bin'), 'claude')];
  await fx.client.call('actor_add', { group_id, actor_id: 'peer1', runtime: 'custom', command, ...(opts.env ? { env: opts.env } : {}) });
  return group_id;
}
