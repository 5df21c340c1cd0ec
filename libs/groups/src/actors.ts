import { assertRuntimeMode, patchedRuntimeMode } from './runtime-mode.js';
import { assertValidActorId, nextAutoActorId } from './actor-id.js';
import { normalizeCommand } from './command-line.js';
import { assertValidEnvMap } from './env-keys.js';
import { groupError } from './errors.js';
import { ActorDoc, RunnerKind, RuntimeStateSource, SubmitMode } from './schemas/actor.js';

export type ActorRole = 'foreman' | 'peer';

/** Internal actors (the voice secretary) are invisible: no role, reached only by explicit id. */
export function isVisibleActor(actor: Pick<ActorDoc, 'internal_kind'>): boolean {
  return !actor.internal_kind;
}

/** The first visible actor in `actors[]` is the foreman, running or not; every other visible actor is a peer. */
export function effectiveRole(actors: readonly ActorDoc[], actorId: string): ActorRole | undefined {
  const visible = actors.filter(isVisibleActor);
  const index = visible.findIndex((a) => a.id === actorId);
  if (index < 0) return undefined;
  return index === 0 ? 'foreman' : 'peer';
}

export function foremanOf(actors: readonly ActorDoc[]): ActorDoc | undefined {
  return actors.find(isVisibleActor);
}

export function findActor(actors: readonly ActorDoc[], actorId: string): ActorDoc {
  const actor = actors.find((a) => a.id === actorId);
  if (!actor) throw groupError('actor_not_found', `actor not found: ${actorId}`, { actor_id: actorId });
  return actor;
}

export type ActorView = ActorDoc & { role: ActorRole | null };

/** The actor list `actor_list` returns: each document plus its role. */
export function actorViews(actors: readonly ActorDoc[]): ActorView[] {
  return actors.map((a) => ({ ...a, role: effectiveRole(actors, a.id) ?? null }));
}

export interface NewActorInput {
  actor_id?: string;
  title?: string;
  runtime?: string;
  runtime_mode?: 'default' | 'acp';
  runner?: string;
  command?: string[] | string;
  env?: Record<string, string>;
  capability_autoload?: string[];
  capability_hidden?: string[];
  default_scope_key?: string;
  submit?: string;
  enabled?: boolean;
  profile_id?: string;
  runtime_state_source?: string;
  internal_kind?: string;
}

function parseEnum<T extends string>(schema: { safeParse(v: unknown): { success: boolean; data?: T } }, value: unknown, field: string, options: readonly string[]): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw groupError('invalid_request', `${field} must be one of ${options.join('|')}`, { field });
  return parsed.data as T;
}

function stringList(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw groupError('invalid_request', `${field} must be an array of strings`, { field });
  }
  return [...value];
}

/** Pure: the actor document `actor_add` stores. Validates the id (or picks `<runtime>-N`) and every field. */
export function buildActor(input: NewActorInput, existing: readonly ActorDoc[], now: string): ActorDoc {
  const runtime = input.runtime?.trim() || 'custom';
  const id = input.actor_id?.trim() || nextAutoActorId(runtime, existing.map((a) => a.id));
  assertValidActorId(id);
  if (existing.some((a) => a.id.toLowerCase() === id.toLowerCase())) {
    throw groupError('actor_exists', `actor already exists: ${id}`, { actor_id: id });
  }
  const actor: Record<string, unknown> = {
    v: 1,
    id,
    title: input.title?.trim() ?? '',
    command: normalizeCommand(input.command),
    env: input.env === undefined ? {} : assertValidEnvMap(input.env),
    default_scope_key: input.default_scope_key ?? '',
    submit: input.submit === undefined ? 'enter' : parseEnum(SubmitMode, input.submit, 'submit', SubmitMode.options),
    capability_autoload: input.capability_autoload === undefined ? [] : stringList(input.capability_autoload, 'capability_autoload'),
    capability_hidden: input.capability_hidden === undefined ? [] : stringList(input.capability_hidden, 'capability_hidden'),
    enabled: input.enabled ?? true,
    runner: input.runner === undefined ? 'pty' : parseEnum(RunnerKind, input.runner, 'runner', RunnerKind.options),
    runtime,
    runtime_state_source:
      input.runtime_state_source === undefined
        ? 'terminal'
        : parseEnum(RuntimeStateSource, input.runtime_state_source, 'runtime_state_source', RuntimeStateSource.options),
    avatar_asset_path: '',
    profile_id: input.profile_id ?? '',
    profile_scope: 'global',
    profile_owner: '',
    profile_revision_applied: 0,
    created_at: now,
    updated_at: now,
  };
  if (input.runtime_mode !== undefined) actor.runtime_mode = assertRuntimeMode(runtime, input.runtime_mode, 'invalid_request');
  if (input.internal_kind) actor.internal_kind = input.internal_kind;
  return ActorDoc.parse(actor);
}

const PATCHABLE = new Set([
  'title',
  'command',
  'env',
  'default_scope_key',
  'submit',
  'enabled',
  'runner',
  'runtime',
  'runtime_mode',
  'runtime_state_source',
  'capability_autoload',
  'capability_hidden',
  'avatar_asset_path',
]);
/** Fields a linked Actor Profile owns; the actor cannot override them while linked. */
export const PROFILE_OWNED_FIELDS = new Set(['runtime', 'runtime_mode', 'command', 'submit', 'env']);

/** Pure: apply an `actor_update` patch; returns the new document and the normalised patch for the event. */
export function applyActorPatch(
  actor: ActorDoc,
  patch: Record<string, unknown>,
  now: string,
): { actor: ActorDoc; patch: Record<string, unknown> } {
  const applied: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (!PATCHABLE.has(key)) throw groupError('invalid_patch', `actor field ${key} cannot be patched`, { field: key });
    if (actor.profile_id && PROFILE_OWNED_FIELDS.has(key)) {
      throw groupError('profile_linked', `${key} is owned by the linked profile ${actor.profile_id}`, {
        field: key,
        profile_id: actor.profile_id,
      });
    }
    switch (key) {
      case 'command':
        applied.command = normalizeCommand(value);
        break;
      case 'env':
        applied.env = assertValidEnvMap(value);
        break;
      case 'enabled':
        if (typeof value !== 'boolean') throw groupError('invalid_patch', 'enabled must be a boolean', { field: key });
        applied.enabled = value;
        break;
      case 'submit':
        applied.submit = parseEnum(SubmitMode, value, key, SubmitMode.options);
        break;
      case 'runner':
        applied.runner = parseEnum(RunnerKind, value, key, RunnerKind.options);
        break;
      case 'runtime_state_source':
        applied.runtime_state_source = parseEnum(RuntimeStateSource, value, key, RuntimeStateSource.options);
        break;
      case 'runtime_mode':
        break; // checked below against the runtime the patch leaves (§8.4)
      case 'capability_autoload':
      case 'capability_hidden':
        applied[key] = stringList(value, key);
        break;
      default:
        if (typeof value !== 'string') throw groupError('invalid_patch', `${key} must be a string`, { field: key });
        applied[key] = key === 'runtime' ? value.trim() || actor.runtime : value;
    }
  }
  const mode = patchedRuntimeMode(actor, patch);
  if (mode !== undefined) applied.runtime_mode = mode;
  return { actor: ActorDoc.parse({ ...actor, ...applied, updated_at: now }), patch: applied };
}
