import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isEventOfKind } from '../event-kind.js';
import { isValidEventOfKind, type CCCSEventV1 } from '../events.js';
import { isKnownKind, kindDataSchema, kindDataSchemas } from './registry.js';

const FIXTURE_LEDGER = join(
  process.env.CCCC_REFERENCE_HOME_FIXTURE ?? join(dirname(fileURLToPath(import.meta.url)), '../../../../../shared/fixtures/reference-home'),
  'groups/g_30e7eb3af8cf/ledger.jsonl',
);

const event = (kind: string, data: Record<string, unknown>): CCCSEventV1 => ({
  v: 1,
  id: 'e'.repeat(32),
  ts: '2026-11-30T08:42:44.191863Z',
  kind,
  group_id: 'g_1',
  scope_key: '',
  by: 'user',
  data,
});

describe('the kind registry', () => {
  it('reads every event the reference daemon wrote with our kind schemas', () => {
    const events = readFileSync(FIXTURE_LEDGER, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CCCSEventV1);
    const known = events.filter((e) => isKnownKind(e.kind));
    expect(known.length).toBeGreaterThan(20);
    const rejected = known.filter((e) => !kindDataSchema(e.kind)!.safeParse(e.data).success).map((e) => `${e.kind} ${e.id}`);
    expect(rejected).toEqual([]);
  });

  it('leaves vendor and unlisted kinds open', () => {
    expect(kindDataSchema('x.vendor.thing')).toBeUndefined();
    expect(kindDataSchema('assistant.reply')).toBeUndefined();
    expect(isKnownKind('toString')).toBe(false);
    expect(Object.keys(kindDataSchemas)).toContain('chat.message');
  });

  it('narrows by kind alone for appended kinds, and by kind and data for read-only ones', () => {
    const legacy = event('chat.read', { actor_id: 'peer1', event_id: 7 });
    expect(isEventOfKind(legacy, 'chat.read')).toBe(true);
    expect(isValidEventOfKind(legacy, 'chat.read')).toBe(false);
    expect(isValidEventOfKind(event('chat.read', { actor_id: 'peer1', event_id: 'abc' }), 'chat.read')).toBe(true);
    expect(isValidEventOfKind(event('mail.read', { actor_id: 'peer1', event_id: 'abc' }), 'chat.read')).toBe(false);
  });
});
