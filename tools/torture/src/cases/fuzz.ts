import { opCatalog } from '@cccc/ipc-protocol';
import { TortureDaemon } from '../daemon-process.js';
import { randomInt, type Family } from '../family.js';
import { hostile, type Probe } from '../probes.js';
import { check } from '../runner.js';
import { Sandbox } from '../sandbox.js';
import { call, requestLine } from '../wire.js';
import { accepts, EDGE_SAMPLES, elementShapeOf, shapeOf, TYPE_SAMPLES, type Schema } from '../schema-walk.js';
import { createGroup } from './setup.js';

// Every op of the catalog, fed wrong types (per key, per nested key, whole args, random
// combinations), then values of the right type at their edges. After each: an error envelope,
// never internal_error, nothing appended by a refusal, ping within 1 s.

type Args = Record<string, unknown>;

/** The ids a request needs to get past "which group / actor" so the mutated key is what is judged. */
function baseArgs(shape: Record<string, Schema>, gid: string): Args {
  const known: Args = {
    group_id: gid,
    dst_group_id: gid,
    actor_id: 'peer1',
    target_actor_id: 'peer1',
    by: 'user',
    profile_id: 'ap_torture_none',
    source_profile_id: 'ap_torture_none',
  };
  return Object.fromEntries(Object.keys(shape).filter((k) => k in known).map((k) => [k, known[k]]));
}

interface Mutation {
  readonly what: string;
  readonly args: unknown;
}

/** One wrong-typed value per key and JSON type, one level into objects and arrays of objects. */
function wrongTypes(shape: Record<string, Schema>, base: Args): Mutation[] {
  const out: Mutation[] = [];
  for (const [key, field] of Object.entries(shape)) {
    for (const [type, value] of TYPE_SAMPLES) {
      if (!accepts(field, value)) out.push({ what: `${key}: ${type}`, args: { ...base, [key]: value } });
    }
    const inner = shapeOf(field);
    const element = elementShapeOf(field);
    for (const [innerKey, innerField] of Object.entries(inner ?? element ?? {})) {
      for (const [type, value] of TYPE_SAMPLES) {
        if (accepts(innerField, value)) continue;
        const nested = { [innerKey]: value };
        out.push({ what: `${key}.${innerKey}: ${type}`, args: { ...base, [key]: inner ? nested : [nested] } });
      }
    }
  }
  for (const [type, value] of [['array', []], ['string', 'args'], ['number', 7], ['boolean', false]] as const) out.push({ what: `args: ${type}`, args: value });
  return out;
}

/** Random keys set to random wrong-or-right values, kept only when the schema refuses the whole. */
function randomWrong(schema: Schema, shape: Record<string, Schema>, base: Args, count: number): Mutation[] {
  const keys = Object.keys(shape);
  const out: Mutation[] = [];
  for (let attempt = 0; out.length < count && attempt < count * 20 && keys.length > 0; attempt++) {
    const args: Args = { ...base };
    const picked: string[] = [];
    for (let i = 0; i < randomInt(1, Math.min(4, keys.length)); i++) {
      const key = keys[randomInt(0, keys.length - 1)]!;
      const [type, value] = [...TYPE_SAMPLES, ...EDGE_SAMPLES][randomInt(0, TYPE_SAMPLES.length + EDGE_SAMPLES.length - 1)]!;
      args[key] = value;
      picked.push(`${key}: ${type}`);
    }
    if (!accepts(schema, args)) out.push({ what: `random {${picked.join(', ')}}`, args });
  }
  return out;
}

/** Right-typed edge values per key: the daemon may accept or refuse, never internal_error. */
function edgeValues(shape: Record<string, Schema>, perKey: number): Array<{ readonly key: string; readonly type: string; readonly value: unknown }> {
  const out: Array<{ key: string; type: string; value: unknown }> = [];
  const pick = (field: Schema, count: number) => {
    const fitting = EDGE_SAMPLES.filter(([, value]) => accepts(field, value));
    // A different spread of samples per key when only some are sent (short profile).
    const offset = randomInt(0, Math.max(0, fitting.length - 1));
    return Array.from({ length: Math.min(count, fitting.length) }, (_, i) => fitting[(offset + i) % fitting.length]!);
  };
  for (const [key, field] of Object.entries(shape)) {
    for (const [type, value] of pick(field, perKey)) out.push({ key, type, value });
    // One level in: `patch.title`, `profile.name`, `ops[].op`, ... (the rest of the object absent).
    const inner = shapeOf(field);
    const element = elementShapeOf(field);
    for (const [innerKey, innerField] of Object.entries(inner ?? element ?? {})) {
      for (const [type, value] of pick(innerField, Math.ceil(perKey / 3))) {
        const nested = { [innerKey]: value };
        out.push({ key, type: `.${innerKey} ${type}`, value: inner ? nested : [nested] });
      }
    }
  }
  return out;
}

export const fuzzFamily: Family = {
  name: 'fuzz',
  async run(runner, profile) {
    using box = Sandbox.create('fuzz');
    await using daemon = await TortureDaemon.start(box.home, box.daemonOutput);
    let gid = await createGroup(daemon.sock, 'fuzz');
    const probe: Probe = { sock: daemon.sock, home: box.home };
    const ops = Object.keys(opCatalog) as Array<keyof typeof opCatalog>;
    const internalErrors: string[] = [];

    await runner.case(`wrong types for every op of the catalog (${ops.length} ops, shutdown last): refused, never internal_error, nothing appended, ping < 1 s`, 240_000, async (signal) => {
      const codes = new Map<string, number>();
      let requests = 0;
      for (const op of [...ops.filter((o) => o !== 'shutdown'), 'shutdown' as const]) {
        const spec = opCatalog[op];
        const shape = shapeOf(spec.args as unknown as Schema) ?? {};
        const base = baseArgs(shape, gid);
        const mutations = [...wrongTypes(shape, base), ...randomWrong(spec.args as unknown as Schema, shape, base, profile.fuzzRandomPerOp)];
        for (const m of mutations) {
          if (signal.aborted) return;
          const what = `${op} {${m.what}}`;
          const outcome = await hostile(probe, what, requestLine(op, m.args));
          requests++;
          const code = outcome.response!.error!.code;
          codes.set(code, (codes.get(code) ?? 0) + 1);
        }
      }
      return `${requests} requests; ${[...codes].map(([c, n]) => `${c} ${n}`).join(', ')}`;
    });

    await runner.case('right-typed edge values for every op but shutdown: never internal_error, ping < 1 s', 240_000, async (signal) => {
      // Destructive ops may succeed here (group_delete, actor_remove, ...): the group and its
      // actor are recreated when gone, so the later ops still reach their handlers.
      let requests = 0;
      let accepted = 0;
      const perKey = profile.name === 'short' ? 8 : EDGE_SAMPLES.length;
      for (const op of ops.filter((o) => o !== 'shutdown')) {
        const shape = shapeOf(opCatalog[op].args as unknown as Schema) ?? {};
        for (const { key, type, value } of edgeValues(shape, perKey)) {
          if (signal.aborted) return;
          // Built at send time: the group may have been deleted and recreated by an earlier request.
          const args = { ...baseArgs(shape, gid), [key]: value };
          const what = `${op} {${key}${type.startsWith('.') ? type : `: ${type}`}} ${JSON.stringify(args).slice(0, 200)}`;
          const outcome = await hostile(probe, what, requestLine(op, args), { mayAccept: true, mayClose: opCatalog[op].upgrade !== undefined, internalErrors });
          requests++;
          if (outcome.response?.ok) accepted++;
          gid = await ensureGroup(daemon.sock, gid);
        }
      }
      check(internalErrors.length === 0, () => `${internalErrors.length} internal_error answers: ${internalErrors.slice(0, 4).join(' || ')}`);
      return `${requests} requests, ${accepted} accepted`;
    });
  },
};

/** The test group and its actor, recreated when an accepted edge request removed them. */
async function ensureGroup(sock: string, gid: string): Promise<string> {
  const shown = await call(sock, 'group_show', { group_id: gid });
  if (!shown.ok) return createGroup(sock, 'fuzz again');
  const actors = await call(sock, 'actor_list', { group_id: gid });
  const list = (actors.result as { actors?: Array<{ id: string }> } | undefined)?.actors ?? [];
  if (!list.some((a) => a.id === 'peer1')) {
    const added = await call(sock, 'actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['cat'] });
    check(added.ok, `could not re-add peer1: ${JSON.stringify(added.error)}`);
  }
  return gid;
}
