import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENT_NAMES, parseHookPayload } from '@cccc/hook-fence';
import { RUNTIME_HOOK_PAYLOAD_KEYS, RuntimeHookPayload } from '@cccc/ipc-protocol';
import { promptMarks } from '@cccc/ipc-protocol/node';
import { pickStatePayload } from './state-payload.js';

// The fast hook's dependency-free field pick held against the one payload schema
// (`RuntimeHookPayload`, which hook-fence's parser builds on), over generated provider payloads:
// schema keys with values of every shape and length around the limits, plus provider-only keys.

const sizes = [0, 1, 2, 63, 64, 65, 255, 256, 257];
const fieldValue = fc.oneof(
  fc.constantFrom(...sizes).map((n) => 'x'.repeat(n)),
  fc.constantFrom(...HOOK_EVENT_NAMES, 'Nope', 'toolu_01', 'mcp__github__search'),
  fc.string({ maxLength: 8 }),
  fc.constantFrom(undefined, null, 7, true, ['a'], { a: 1 }),
);
const providerOnly = fc.dictionary(fc.constantFrom('prompt', 'tool_input', 'tool_response', 'message', 'cwd', 'transcript_path', 'agent_type'), fc.jsonValue(), {
  maxKeys: 4,
});
// Mostly plausible values (known event names, short ids), so that many payloads get past both parsers.
const likely = (valid: fc.Arbitrary<string>) => fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: fieldValue });
const fieldArbs: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(RUNTIME_HOOK_PAYLOAD_KEYS.map((k) => [k, likely(fc.string({ minLength: 1, maxLength: 12 }))]));
fieldArbs.hook_event_name = likely(fc.constantFrom(...HOOK_EVENT_NAMES));
const rawPayload = fc
  .tuple(fc.record(fieldArbs, { requiredKeys: [] }), providerOnly)
  .map(([fields, extra]) => ({ ...extra, ...fields }) as Record<string, unknown>);

/** The raw payload seen only through the schema's keys (what the wire could carry of it). */
const schemaView = (raw: Record<string, unknown>) =>
  Object.fromEntries(RUNTIME_HOOK_PAYLOAD_KEYS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));

const fieldAccepted = (key: (typeof RUNTIME_HOOK_PAYLOAD_KEYS)[number], value: unknown): boolean =>
  value !== undefined && RuntimeHookPayload.shape[key].safeParse(value).success;

describe('the fast hook pick against the one payload schema', () => {
  it('whatever the pick keeps, the schema accepts; it keeps every field the schema accepts', () => {
    fc.assert(
      fc.property(rawPayload, (raw) => {
        const picked = pickStatePayload(raw);
        const schema = RuntimeHookPayload.safeParse(schemaView(raw));
        // A prompt's line marks, never its text, for a UserPromptSubmit that reports one.
        const marks = 'payload' in picked && picked.payload.hook_event_name === 'UserPromptSubmit' && typeof raw.prompt === 'string' ? promptMarks(raw.prompt) : undefined;
        if ('payload' in picked) expect(picked.payload.prompt_marks).toEqual(marks);
        // Never refuses what the schema accepts, and then sends exactly what the schema parsed.
        if (schema.success) expect(picked).toEqual({ payload: marks ? { ...schema.data, prompt_marks: marks } : schema.data });
        if (!('payload' in picked)) return;
        expect(RuntimeHookPayload.parse(picked.payload)).toEqual(picked.payload);
        for (const key of RUNTIME_HOOK_PAYLOAD_KEYS) {
          // An optional field of the wrong type is left out rather than failing the event.
          expect({ key, kept: picked.payload[key] }).toEqual({ key, kept: fieldAccepted(key, raw[key]) ? raw[key] : undefined });
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('loses nothing the fence reads: the daemon parses the picked payload as it would the raw one', () => {
    fc.assert(
      fc.property(rawPayload, fc.constantFrom('claude' as const, 'codex' as const), (raw, runtime) => {
        const direct = parseHookPayload(runtime, raw);
        if (!('value' in direct)) return;
        const picked = pickStatePayload(raw);
        expect(picked).toHaveProperty('payload');
        if ('payload' in picked) expect(parseHookPayload(runtime, picked.payload)).toEqual(direct);
      }),
      { numRuns: 2000 },
    );
  });
});
