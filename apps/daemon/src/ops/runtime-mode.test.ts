import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.4 runtime_mode on actor_add / actor_update: acp only for Antigravity, Copilot, Devin and
// Cursor; update preservation rules; listing; an acp-mode start runs headless ACP (see
// runtime/headless-acp.test.ts) and a command that cannot run that way fails explicitly instead
// of running the native TUI in its place.

describe('runtime_mode over the socket', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start();
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('actor_add rejects unsupported runtime/mode pairs with invalid_request and changes nothing', async () => {
    const { group_id } = await d.call('group_create', { title: 'modes' });
    await d.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
    const before = d.snapshot(group_id);
    for (const runtime of ['opencode', 'codex', 'claude', 'kilo', 'grok']) {
      const error = await d.errorOf('actor_add', { group_id, actor_id: `x-${runtime}`, runtime, runtime_mode: 'acp' });
      expect(error.code).toBe('invalid_request');
      expect(error.details).toMatchObject({ field: 'runtime_mode' });
    }
    expect(await d.codeOf('actor_add', { group_id, actor_id: 'x-bad', runtime: 'cursor', runtime_mode: 'turbo' })).toBe('invalid_request');
    expect(d.snapshot(group_id)).toEqual(before);
  });

  it('acp is stored and listed for cursor; same runtime keeps it, a runtime change resets it, explicit pairs are checked', async () => {
    const { group_id } = await d.call('group_create', { title: 'modes 2' });
    await d.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
    const added = await d.call('actor_add', { group_id, actor_id: 'cur', runtime: 'cursor', runtime_mode: 'acp' });
    expect(added.actor).toMatchObject({ runtime: 'cursor', runtime_mode: 'acp' });
    const listed = async () => (await d.call('actor_list', { group_id })).actors.find((a) => a.id === 'cur')!;
    expect(await listed()).toMatchObject({ runtime_mode: 'acp', effective_runtime_mode: 'default', running: false });
    expect((await listed()).runtime_mode).toBe('acp');

    // Repeating the same runtime without a mode preserves it.
    await d.call('actor_update', { group_id, actor_id: 'cur', patch: { runtime: 'cursor' } });
    expect((await listed()).runtime_mode).toBe('acp');
    // Explicit acp with another runtime that has it.
    await d.call('actor_update', { group_id, actor_id: 'cur', patch: { runtime: 'copilot', runtime_mode: 'acp' } });
    expect(await listed()).toMatchObject({ runtime: 'copilot', runtime_mode: 'acp' });
    // Unsupported pairs: invalid_patch, nothing changes.
    const before = d.snapshot(group_id);
    const error = await d.errorOf('actor_update', { group_id, actor_id: 'cur', patch: { runtime: 'claude', runtime_mode: 'acp' } });
    expect(error.code).toBe('invalid_patch');
    expect(error.details).toMatchObject({ field: 'runtime_mode' });
    expect(await d.codeOf('actor_update', { group_id, actor_id: 'lead', patch: { runtime_mode: 'acp' } })).toBe('invalid_patch');
    expect(d.snapshot(group_id)).toEqual(before);
    // Changing the runtime without a mode resets it to default (recorded in the event's patch).
    const updated = await d.call('actor_update', { group_id, actor_id: 'cur', patch: { runtime: 'claude' } });
    expect(updated.event.data).toMatchObject({ patch: { runtime: 'claude', runtime_mode: 'default' } });
    expect(await listed()).toMatchObject({ runtime: 'claude', runtime_mode: 'default' });
  });

  it('an acp-mode actor whose command is not its CLI fails with runtime_start_failed instead of running its native TUI', async () => {
    const { group_id } = await d.call('group_create', { title: 'modes 3' });
    await d.call('attach', { path: d.projectDir('modes3'), group_id });
    await d.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
    await d.call('actor_add', { group_id, actor_id: 'dev', runtime: 'devin', runtime_mode: 'acp', command: ['cat'] });
    const error = await d.errorOf('actor_start', { group_id, actor_id: 'dev' });
    expect(error.code).toBe('runtime_start_failed');
    expect(error.details).toMatchObject({ actor_id: 'dev', reason: 'unsupported_command' });
    expect((await d.call('actor_list', { group_id })).actors.find((a) => a.id === 'dev')).toMatchObject({ running: false });
    // Back to the native mode, it starts.
    await d.call('actor_update', { group_id, actor_id: 'dev', patch: { runtime_mode: 'default' } });
    await d.call('actor_start', { group_id, actor_id: 'dev' });
    expect((await d.call('actor_list', { group_id })).actors.find((a) => a.id === 'dev')).toMatchObject({ running: true, runtime_mode: 'default', effective_runtime_mode: 'default' });
    await d.call('actor_stop', { group_id, actor_id: 'dev' });
  });
});
