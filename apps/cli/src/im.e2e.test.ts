import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ImAuthority } from '@cccc/im';
import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

describe('cccc im (real daemon)', () => {
  it('configures with a token from the environment, lists, binds, rejects and revokes', async () => {
    const { group_id } = await cli.json(['group', 'create', '--title', 'im']);
    await cli.json(['use', group_id]);
    const set = await cli.cccc(['im', 'config', '--platform', 'telegram', '--token-env', 'TG_TOKEN'], { TG_TOKEN: '99:cli-secret-token' });
    expect(set.stdout).toBe('platform: telegram\nenabled: false\nforward public notifications: false\nbot token: stored\n');
    expect(readFileSync(join(cli.home(), 'groups', group_id, 'group.yaml'), 'utf8')).not.toContain('cli-secret-token');
    expect((await cli.cccc(['im', 'config', '--token-env', 'UNSET_VAR'])).stderr).toMatch(/^error: invalid_request: --token-env/);

    const authority = new ImAuthority(join(cli.home(), 'groups', group_id, 'state'));
    const key = await authority.requestKey({ chat_id: '-1009', thread_id: 3, platform: 'telegram' });
    const other = await authority.requestKey({ chat_id: '55', thread_id: 0, platform: 'telegram' });
    const pending = await cli.cccc(['im', 'pending']);
    expect(pending.stdout).toContain(`${key}  telegram  -1009 (thread 3)  expires in`);
    expect((await cli.cccc(['im', 'bind', key])).stdout).toBe('bound telegram chat -1009 (thread 3)\n');
    expect((await cli.cccc(['im', 'reject', other])).stdout).toBe(`rejected ${other}\n`);
    expect((await cli.cccc(['im', 'pending'])).stdout).toBe('no pending keys\n');
    const bad = await cli.cccc(['im', 'bind', key]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: invalid_key: /);
    expect((await cli.json(['im', 'list'])).authorized).toEqual([expect.objectContaining({ chat_id: '-1009', thread_id: 3 })]);
    expect((await cli.cccc(['im', 'revoke', '-1009'])).stdout).toBe('-1009 was not authorized\n');
    expect((await cli.cccc(['im', 'revoke', '-1009', '--thread', '3'])).stdout).toBe('revoked -1009\n');
    expect((await cli.cccc(['im', 'list'])).stdout).toBe('no authorized chats\n');
    expect((await cli.cccc(['im', 'unset'])).stdout).toBe('IM configuration removed\n');
    expect((await cli.cccc(['im', 'config'])).stdout).toBe('IM not configured\n');
  });
});
