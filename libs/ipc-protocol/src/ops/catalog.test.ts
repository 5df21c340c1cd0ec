import { describe, expect, it } from 'vitest';
import { OpRouter } from '../router.js';
import { opCatalog, type OpName } from './catalog.js';
import { opExamples } from './catalog.fixtures.js';
import { InsightText } from './shared.js';

const opNames = Object.keys(opCatalog) as OpName[];

/** Dispatch one request to a router serving `op` with a handler that records what it got. */
async function dispatch(op: OpName, args: Record<string, unknown>) {
  const seen: unknown[] = [];
  const router = new OpRouter().register(
    op as 'ping',
    ((received: unknown) => {
      seen.push(received);
      return {};
    }) as never,
  );
  const { response } = await router.dispatch({ v: 1, op, args });
  return { response, error: response.error ?? undefined, handled: seen[0] as Record<string, unknown> | undefined };
}

/** The wire answer the spec wants for a missing key: the identity codes, else invalid_request. */
function expectedMissing(key: string) {
  if (key === 'group_id') return { code: 'missing_group_id' };
  if (key === 'actor_id') return { code: 'missing_actor_id' };
  return { code: 'invalid_request', details: { field: key } };
}

const without = (args: object, key: string) => Object.fromEntries(Object.entries(args).filter(([k]) => k !== key));

describe('op catalog', () => {
  it('has an example for every op and nothing else', () => {
    expect(Object.keys(opExamples).sort()).toEqual([...opNames].sort());
  });

  describe.each(opNames)('%s', (op) => {
    const spec = opCatalog[op];
    const example = opExamples[op];

    it('accepts the example request and result', () => {
      expect(spec.args.safeParse(example.args).error).toBeUndefined();
      expect(spec.result.safeParse(example.result).error).toBeUndefined();
    });

    it.each(example.required.length > 0 ? [...example.required] : ['(none)'])(
      'refuses a request without %s',
      async (key) => {
        if (key === '(none)') return;
        const parsed = spec.args.safeParse(without(example.args, key));
        expect(parsed.error?.issues[0]?.path).toEqual([key]);
        const { error, handled } = await dispatch(op, without(example.args, key));
        expect(error).toMatchObject(expectedMissing(key));
        expect(handled).toBeUndefined();
      },
    );

    it('ignores unknown arg keys', async () => {
      if (spec.upgrade === 'raw_stream') return; // term_attach has its own transport tests
      const { error, handled } = await dispatch(op, { ...example.args, some_future_key: 1 });
      expect(error).toBeUndefined();
      expect(handled).not.toHaveProperty('some_future_key');
    });
  });
});

describe('message ops', () => {
  const legacy = ['send', 'send_files', 'reply', 'send_cross_group', 'message_upload_preflight'] as const;

  it.each(legacy.flatMap((op) => ['priority', 'reply_required', 'requires_ack'].map((field) => [op, field] as const)))(
    '%s refuses the legacy field %s before the handler',
    async (op, field) => {
      const { error, handled } = await dispatch(op, { ...opExamples[op].args, [field]: 'high' });
      expect(error).toMatchObject({ code: 'unsupported_message_fields', details: { fields: [field] } });
      expect(handled).toBeUndefined();
    },
  );

  it('requires message_mode where the spec does, but not on reply', async () => {
    for (const op of ['send', 'send_files', 'send_cross_group', 'message_upload_preflight'] as const) {
      const { error } = await dispatch(op, without(opExamples[op].args, 'message_mode'));
      expect(error).toMatchObject({ code: 'invalid_request', details: { field: 'message_mode' } });
    }
    expect((await dispatch('reply', opExamples.reply.args)).error).toBeUndefined();
  });

  it('refuses request_reply as a reply mode', async () => {
    const { error } = await dispatch('reply', { ...opExamples.reply.args, message_mode: 'request_reply' });
    expect(error).toMatchObject({ code: 'invalid_request', details: { field: 'message_mode' } });
    expect((await dispatch('reply', { ...opExamples.reply.args, message_mode: 'mail' })).error).toBeUndefined();
  });

  it('leaves Insight checks to the handler so it can answer invalid_insight', async () => {
    const long = 'x'.repeat(1201);
    const { handled } = await dispatch('send', { ...opExamples.send.args, insight: long });
    expect(handled).toMatchObject({ insight: long });
    expect(InsightText.safeParse(long).success).toBe(false);
    expect(InsightText.safeParse('x'.repeat(1200)).success).toBe(true);
  });

  it('wants relay provenance as a pair', async () => {
    const { error } = await dispatch('send', { ...opExamples.send.args, src_group_id: 'g_000000000001' });
    expect(error).toMatchObject({ code: 'invalid_request', details: { field: 'src_event_id' } });
  });

  it('refuses attachments on a local cross-group send instead of dropping them', async () => {
    const { error } = await dispatch('send_cross_group', { ...opExamples.send_cross_group.args, attachments: [] });
    expect(error).toMatchObject({ code: 'unsupported_message_fields', details: { fields: ['attachments'] } });
  });

  it('checks the operation-dependent keys of an upload preflight', async () => {
    const base = opExamples.message_upload_preflight.args;
    const cases = [
      [{ ...base, operation: 'reply' }, 'reply_to'],
      [{ ...base, operation: 'send_cross_group' }, 'dst_group_id'],
      [{ ...base, operation: 'reply', reply_to: 'e', message_mode: 'request_reply' }, 'message_mode'],
    ] as const;
    for (const [args, field] of cases) {
      expect((await dispatch('message_upload_preflight', args)).error).toMatchObject({
        code: 'invalid_request',
        details: { field },
      });
    }
  });
});

describe('identity keys', () => {
  it('does not turn an optional group_id or actor_id into missing_*', async () => {
    expect((await dispatch('attach', { path: '/p' })).error).toBeUndefined();
    expect((await dispatch('debug_snapshot', {})).error).toBeUndefined();
    expect((await dispatch('actor_add', { group_id: 'g_1', runtime: 'codex' })).error).toBeUndefined();
    expect((await dispatch('actor_add', { group_id: 'g_1', actor_id: '' })).error).toBeUndefined();
    expect((await dispatch('group_help_get', { group_id: 'g_1' })).error).toBeUndefined();
  });

  it('answers missing_group_id for a blank group id on required ops', async () => {
    expect((await dispatch('send', { ...opExamples.send.args, group_id: ' ' })).error?.code).toBe('missing_group_id');
  });
});

describe('values the spec constrains', () => {
  it('refuses stopped as a group_set_state value', async () => {
    const { error } = await dispatch('group_set_state', { group_id: 'g_1', state: 'stopped' });
    expect(error).toMatchObject({ code: 'invalid_request', details: { field: 'state' } });
  });

  it('caps the preamble override at 512 KiB of UTF-8', async () => {
    const big = 'é'.repeat(256 * 1024 + 1); // 2 bytes each in UTF-8
    const { error } = await dispatch('group_preamble_set', { group_id: 'g_1', content: big });
    expect(error).toMatchObject({ code: 'invalid_request', details: { field: 'content' } });
  });

  it('keeps command as argv in actor edits', async () => {
    const { error } = await dispatch('actor_update', { group_id: 'g_1', actor_id: 'a', patch: { command: 'cat -n' } });
    expect(error).toMatchObject({ code: 'invalid_request', details: { field: 'patch.command' } });
  });

  it('keeps secret results to key names', () => {
    const leaked = { group_id: 'g', actor_id: 'a', keys: ['K'], values: { K: 'secret' } };
    expect(opCatalog.actor_env_private_keys.result.safeParse(leaked).success).toBe(false);
    expect(opCatalog.actor_profile_secret_update.result.safeParse({ profile_id: 'p', keys: [], env: {} }).success).toBe(
      false,
    );
  });

  it('marks both event streams as NDJSON upgrades', () => {
    expect(opCatalog.events_stream.upgrade).toBe('ndjson_stream');
    expect(opCatalog.global_events_stream.upgrade).toBe('ndjson_stream');
  });
});
