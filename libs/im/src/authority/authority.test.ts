import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImAuthority } from './authority.js';
import { KEY_TTL_SECONDS } from './state.js';
import { normalizeThreadId, threadKey } from './thread-id.js';

let dir: string;
let clock: number;
const authority = () => new ImAuthority(dir, { now: () => clock });
const file = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, Record<string, unknown>>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'im-auth-'));
  clock = 1_760_000_000;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('thread ids stay opaque', () => {
  it('keeps numbers and strings as given, and maps the no-thread spellings to 0', () => {
    expect(normalizeThreadId(42)).toBe(42);
    expect(normalizeThreadId('1710000000.100')).toBe('1710000000.100');
    expect(normalizeThreadId('12345678901234567890123')).toBe('12345678901234567890123');
    for (const none of [undefined, null, '', ' ', 0, '0', true, {}, []]) expect(normalizeThreadId(none)).toBe(0);
    expect(threadKey('c1', 0)).toBe('c1');
    expect(threadKey('c1', '1710000000.100')).toBe('c1:1710000000.100');
  });
});

describe('ImAuthority', () => {
  it('mints one live key per chat, binds it once (authorized + subscribed), then the key is spent', async () => {
    const a = authority();
    const key = await a.requestKey({ chat_id: '-100', thread_id: 7, platform: 'telegram' });
    expect(key).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(await a.requestKey({ chat_id: '-100', thread_id: 7, platform: 'telegram' })).toBe(key);
    const pending = await a.listPending();
    expect(pending).toEqual([
      { key, chat_id: '-100', thread_id: 7, platform: 'telegram', created_at: clock, expires_at: clock + KEY_TTL_SECONDS, expires_in_seconds: KEY_TTL_SECONDS },
    ]);
    expect(file('im_pending_keys.json')[key]).toMatchObject({ chat_id: '-100', thread_id: 7, created_at: clock, expires_at: clock + 600 });

    expect(await a.bind(key)).toEqual({ chat_id: '-100', thread_id: 7, platform: 'telegram' });
    expect(file('im_authorized_chats.json')['-100:7']).toMatchObject({ chat_id: '-100', thread_id: 7, platform: 'telegram', key_used: key, authorization_source: 'binding_key' });
    expect(file('im_subscribers.json')['-100:7']).toMatchObject({ subscribed: true, verbose: false, paused: false, thread_id: 7, platform: 'telegram' });
    expect(file('im_pending_keys.json')).toEqual({});
    expect(statSync(join(dir, 'im_authorized_chats.json')).mode & 0o777).toBe(0o600);
    await expect(a.bind(key)).rejects.toMatchObject({ code: 'invalid_key' });
    expect(await a.isAuthorized({ chat_id: '-100', thread_id: 7, platform: 'telegram' })).toBe(true);
    expect(await a.isAuthorized({ chat_id: '-100', thread_id: 0, platform: 'telegram' })).toBe(false);
    expect(await a.targets()).toEqual([{ chat_id: '-100', thread_id: 7, platform: 'telegram', verbose: false }]);
  });

  it('expires keys: not listed, not bindable, and a new request gets a fresh key', async () => {
    const a = authority();
    const key = await a.requestKey({ chat_id: 'c', thread_id: 0, platform: 'telegram' });
    clock += KEY_TTL_SECONDS;
    expect(await a.listPending()).toEqual([]);
    await expect(a.bind(key)).rejects.toMatchObject({ code: 'invalid_key' });
    expect(await a.requestKey({ chat_id: 'c', thread_id: 0, platform: 'telegram' })).not.toBe(key);
  });

  it('reject is idempotent and a rejected key cannot bind; blank keys are missing_key', async () => {
    const a = authority();
    const key = await a.requestKey({ chat_id: 'c', thread_id: 0, platform: 'slack' });
    expect(await a.reject(key)).toBe(true);
    expect(await a.reject(key)).toBe(false);
    await expect(a.bind(key)).rejects.toMatchObject({ code: 'invalid_key' });
    expect(() => a.bind(' ')).toThrow(expect.objectContaining({ code: 'missing_key' }));
    expect(() => a.reject('')).toThrow(expect.objectContaining({ code: 'missing_key' }));
  });

  it('revoke removes authorization and subscription together; a Slack thread ts survives byte for byte', async () => {
    const a = authority();
    const ts = '1710000000.100';
    await a.bind(await a.requestKey({ chat_id: 'C1', thread_id: ts, platform: 'slack' }));
    expect(Object.keys(file('im_authorized_chats.json'))).toEqual([`C1:${ts}`]);
    expect(readFileSync(join(dir, 'im_subscribers.json'), 'utf8')).toContain(`"thread_id": "${ts}"`);
    expect(await a.revoke('C1', 0)).toEqual({ revoked: false, unsubscribed: false });
    expect(await a.revoke('C1', ts)).toEqual({ revoked: true, unsubscribed: true });
    expect(file('im_authorized_chats.json')).toEqual({});
    expect(file('im_subscribers.json')).toEqual({});
    expect(await a.isAuthorized({ chat_id: 'C1', thread_id: ts, platform: 'slack' })).toBe(false);
    expect(() => a.revoke(' ', 0)).toThrow(expect.objectContaining({ code: 'missing_chat_id' }));
  });

  it('reads the reference files as written (created_at only, legacy keys) and drops malformed entries', async () => {
    writeFileSync(join(dir, 'im_pending_keys.json'), JSON.stringify({ k1: { chat_id: '5', thread_id: 0, platform: 'telegram', created_at: clock - 10 }, bad: 'x' }));
    writeFileSync(join(dir, 'im_authorized_chats.json'), '{not json');
    const a = authority();
    expect(await a.listPending()).toEqual([expect.objectContaining({ key: 'k1', expires_at: clock - 10 + 600, expires_in_seconds: 590 })]);
    expect(await a.listAuthorized()).toEqual([]);
  });

  it('serializes read-modify-writes across instances: no concurrent key is lost', async () => {
    const one = authority();
    const two = authority();
    const keys = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).requestKey({ chat_id: `chat-${i}`, thread_id: 0, platform: 'telegram' })),
    );
    expect(new Set(keys).size).toBe(20);
    expect(Object.keys(file('im_pending_keys.json')).sort()).toEqual([...keys].sort());
  });
});
