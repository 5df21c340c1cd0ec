import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import { runtimeFixture } from './daemon-fixture.js';

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;

/** The built CLI entry the injected hooks run (`cccc hook claude-state`). */
export const BUILT_CLI = resolve(import.meta.dirname, '../../cli/bin/cccc.js');

/** A runtime fixture whose daemon was handed the built CLI, so it injects hooks that run it. */
export function hookedRuntimeFixture(env: NodeJS.ProcessEnv = {}): Promise<Fx> {
  return runtimeFixture(env, { cliEntry: BUILT_CLI });
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
