import { describe, expect, it } from 'vitest';
import { planLegacyImport } from './legacy.js';

// §8.16 one-way migration (pure core). The IO shell and its commit order are tested through the
// daemon in apps/daemon/src/im/im-migration.test.ts.

describe('planLegacyImport', () => {
  it('moves a token kept in group.yaml:im into secrets and retires the field', () => {
    const plan = planLegacyImport({ im: { platform: 'telegram', enabled: true, bot_token: '123:abc' } }, {}, {});
    expect(plan.secrets).toEqual({ bot_token: '123:abc' });
    expect(plan.im).toEqual({ platform: 'telegram', enabled: true });
    expect(plan.changed).toBe(true);
  });

  it('resolves *_env names from the environment; a raw token pasted there is taken as the token', () => {
    const slack = planLegacyImport({ im: { platform: 'slack', bot_token_env: 'SLACK_BOT', app_token_env: 'xapp-pasted' } }, {}, { SLACK_BOT: 'xoxb-1' });
    expect(slack.secrets).toEqual({ bot_token: 'xoxb-1', app_token: 'xapp-pasted' });
    expect(slack.im).toEqual({ platform: 'slack' });
  });

  it('keeps an env name whose variable is unset, with a warning naming it (never dropped silently)', () => {
    const plan = planLegacyImport({ im: { platform: 'discord', token_env: 'DISCORD_TOKEN' } }, {}, {});
    expect(plan.secrets).toEqual({});
    expect(plan.im).toEqual({ platform: 'discord', token_env: 'DISCORD_TOKEN' });
    expect(plan.warnings.join('\n')).toContain('token_env=DISCORD_TOKEN');
    expect(plan.changed).toBe(false);
  });

  it('a token already in secrets wins; the group.yaml copy is retired with a warning that shows no token', () => {
    const plan = planLegacyImport({ im: { platform: 'telegram', bot_token: 'old-secret' } }, { bot_token: 'stored' }, {});
    expect(plan.secrets).toEqual({});
    expect(plan.im).toEqual({ platform: 'telegram' });
    expect(plan.warnings.join('\n')).not.toContain('old-secret');
  });

  it('imports the legacy im_bridge durable fields, keeps its diagnostics, keeps thread ids opaque', () => {
    const group = {
      im_bridge: {
        config: { platform: 'slack', bot_token: 'xoxb-9', app_token: 'xapp-9' },
        enabled: true,
        authorized: [{ chat_id: 'C1', thread_id: '1710000000.100', platform: 'slack', authorized_at: 1 }],
        subscribers: { 'C1:1710000000.100': { subscribed: true, thread_id: '1710000000.100', platform: 'slack' } },
        pending: {},
        last_error: 'connection reset',
      },
    };
    const plan = planLegacyImport(group, {}, {});
    expect(plan.im).toEqual({ platform: 'slack', enabled: true });
    expect(plan.secrets).toEqual({ bot_token: 'xoxb-9', app_token: 'xapp-9' });
    expect(plan.authority.authorized).toEqual({
      'C1:1710000000.100': expect.objectContaining({ chat_id: 'C1', thread_id: '1710000000.100', key_used: '', authorization_source: 'binding_key' }),
    });
    expect(plan.authority.subscribers?.['C1:1710000000.100']).toMatchObject({ thread_id: '1710000000.100' });
    expect(plan.authority.pending).toEqual({});
    expect(plan.imBridge).toEqual({ last_error: 'connection reset' });
  });

  it('canonical group.yaml:im wins over the legacy config; nothing to do when nothing is legacy', () => {
    const plan = planLegacyImport({ im: { platform: 'telegram', enabled: false }, im_bridge: { config: { platform: 'slack' }, enabled: true } }, {}, {});
    expect(plan.im).toEqual({ platform: 'telegram', enabled: false });
    expect(plan.imBridge).toBeUndefined();
    expect(planLegacyImport({ im: { platform: 'telegram', enabled: true } }, { bot_token: 't' }, {}).changed).toBe(false);
    expect(planLegacyImport({}, {}, {}).changed).toBe(false);
  });
});
