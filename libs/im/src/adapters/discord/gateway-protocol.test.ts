import { describe, expect, it } from 'vitest';
import { closeAction, gatewayConnectUrl, outboundChannel, parseGatewayPayload, toInboundMessage } from './gateway-protocol.js';

const message = {
  id: '1200000000000000001',
  channel_id: '300000000000000003',
  author: { id: '400000000000000004', username: 'alice', global_name: null },
  content: 'hi',
  timestamp: '2026-12-06T10:00:00.000000+00:00',
  type: 0,
};

describe('Discord gateway protocol (pure)', () => {
  it('classifies close codes', () => {
    expect(closeAction(4004)).toBe('auth_failed');
    for (const code of [4010, 4011, 4012, 4013, 4014]) expect(closeAction(code)).toBe('fatal');
    expect(closeAction(4007)).toBe('identify');
    expect(closeAction(4009)).toBe('identify');
    for (const code of [1000, 1001, 1006, 4000, 4008]) expect(closeAction(code)).toBe('resume');
  });

  it('adds the version and encoding to the gateway URL', () => {
    expect(gatewayConnectUrl('wss://gateway.discord.gg')).toBe('wss://gateway.discord.gg/?v=10&encoding=json');
    expect(gatewayConnectUrl('ws://127.0.0.1:9/resume')).toBe('ws://127.0.0.1:9/resume?v=10&encoding=json');
  });

  it('parses payloads and ignores garbage', () => {
    expect(parseGatewayPayload('{"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null}')).toMatchObject({ op: 10 });
    expect(parseGatewayPayload('{"d":1}')).toBeNull();
    expect(parseGatewayPayload('nope')).toBeNull();
  });

  it('maps MESSAGE_CREATE and drops bots, webhooks, itself, system and empty messages', () => {
    expect(toInboundMessage(message, 'BOT')).toMatchObject({ update_id: message.id, from: { name: 'alice' }, thread_id: 0 });
    expect(toInboundMessage({ ...message, type: 19 }, 'BOT')).not.toBeNull();
    expect(toInboundMessage({ ...message, author: { ...message.author, bot: true } }, 'BOT')).toBeNull();
    expect(toInboundMessage({ ...message, webhook_id: '1' }, 'BOT')).toBeNull();
    expect(toInboundMessage(message, message.author.id)).toBeNull();
    expect(toInboundMessage({ ...message, type: 7 }, 'BOT')).toBeNull();
    expect(toInboundMessage({ ...message, content: '' }, 'BOT')).toBeNull();
  });

  it('picks the outbound channel: the thread when given, refusing numbers and non-snowflakes', () => {
    expect(outboundChannel('300000000000000003', 0)).toEqual({ channel: '300000000000000003' });
    expect(outboundChannel('300000000000000003', '310000000000000031')).toEqual({ channel: '310000000000000031' });
    expect(outboundChannel('300000000000000003', 310000000000000031)).toEqual({ error: 'invalid_thread_id' });
    expect(outboundChannel('300000000000000003', '../x')).toEqual({ error: 'invalid_thread_id' });
    expect(outboundChannel('general', 0)).toEqual({ error: 'invalid_chat_id' });
  });
});
