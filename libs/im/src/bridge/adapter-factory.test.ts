import { describe, expect, it } from 'vitest';
import { createAdapter } from './adapter-factory.js';

describe('createAdapter', () => {
  it('builds the platform adapter from the stored tokens, or nothing when one is missing or malformed', () => {
    expect(createAdapter('telegram', { bot_token: '1:a' }, {})?.platform).toBe('telegram');
    expect(createAdapter('telegram', {}, {})).toBeUndefined();
    expect(createAdapter('slack', { bot_token: 'xoxb-1-abc', app_token: 'xapp-1-abc' }, {})?.platform).toBe('slack');
    expect(createAdapter('slack', { bot_token: 'xoxb-1-abc' }, {})).toBeUndefined();
    expect(createAdapter('discord', { bot_token: 'discord-token' }, {})?.platform).toBe('discord');
  });
});
