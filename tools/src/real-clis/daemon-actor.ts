import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { expect } from 'vitest';
import type { FakeModel } from '../fake-model/index.js';
import type { RealCliTeardown } from './test-support.js';

// A CLI-started daemon (`cccc daemon start`, as users start it) with one attached group, and
// what the daemon-actor suites read about one actor while they wait on it.

export type Client = InstanceType<typeof DaemonClient>;

export interface DaemonGroup {
  readonly home: string;
  readonly client: Client;
  readonly groupId: string;
  /** The group's attached scope: the actors' working folder. */
  readonly scope: string;
}

/** A temp CCCC_HOME (removed after the test), its daemon started with `env`, one group attached to `<home>/scope`. */
export async function startDaemonGroup(teardown: RealCliTeardown, options: { title: string; env?: NodeJS.ProcessEnv }): Promise<DaemonGroup> {
  const home = teardown.home(mkdtempSync(join(tmpdir(), 'cccc-real-')));
  teardown.cleanups.push(() => rmSync(home, { recursive: true, force: true, maxRetries: 3 }));
  await teardown.cccc(['daemon', 'start'], options.env);
  const client = new DaemonClient({ home });
  const { group_id } = await client.call('group_create', { title: options.title });
  const scope = join(home, 'scope');
  mkdirSync(scope, { recursive: true });
  await client.call('attach', { path: scope, group_id });
  return { home, client, groupId: group_id, scope };
}

/**
 * A temp folder (removed after the test). Used as an agent's HOME, it can still be written after
 * the test by processes that are not our children: Agent View's supervisor and its spare workers
 * outlive the last session (ENOTEMPTY in CI, even after ~10 s of retries). So whatever still runs
 * with this folder as its HOME is killed first; the removal then retries briefly.
 */
export function tempDir(teardown: RealCliTeardown, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  teardown.cleanups.push(() => {
    killProcessesWithHome(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 8, retryDelay: 300 });
  });
  return dir;
}

/** SIGKILL every process whose environment has `HOME=<home>` (a test's private agent home). */
export function killProcessesWithHome(home: string): void {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
}

/** `daemon/hook.log`: the hook events the daemon's fence rejected, and why. */
export function hookLog(home: string): string {
  try {
    return readFileSync(join(home, 'daemon', 'hook.log'), 'utf8');
  } catch {
    return '';
  }
}

export interface ActorProbe {
  readonly actorId: string;
  /** The actor's rendered terminal tail (or the error that prevented reading it). */
  screen(): Promise<string>;
  /** The actor as actor_list shows it (working state included). */
  actor(): Promise<ActorView | undefined>;
  /** ledger_statuses of one message for this actor. */
  status(eventId: string): Promise<RecipientView | undefined>;
  /** Screen, actor, the fence's rejections and `extra()`: appended to a timed-out wait. */
  diagnose(): Promise<string>;
}

type ActorView = Awaited<ReturnType<typeof listActors>>[number];
type RecipientView = Awaited<ReturnType<typeof readStatuses>>[string];

const listActors = async (client: Client, group_id: string) => (await client.call('actor_list', { group_id })).actors;
const readStatuses = async (client: Client, group_id: string, eventId: string) =>
  (await client.call('ledger_statuses', { group_id, event_ids: [eventId] })).statuses[eventId] ?? {};

export function actorProbe(group: DaemonGroup, actorId: string, extra: () => string = () => ''): ActorProbe {
  const { client, groupId } = group;
  const screen = async () =>
    (await client.call('terminal_tail', { group_id: groupId, actor_id: actorId, strip_ansi: true, compact: true }).catch((e: unknown) => ({ text: String(e) }))).text;
  const actor = async () => (await listActors(client, groupId)).find((a) => a.id === actorId);
  return {
    actorId,
    screen,
    actor,
    status: async (eventId) => (await readStatuses(client, groupId, eventId))[actorId],
    diagnose: async () => {
      const a = await actor().catch(String);
      const state = typeof a === 'string' ? a : JSON.stringify({ state: a?.effective_working_state, reason: a?.effective_working_reason, input: a?.input_state });
      return `screen:\n${await screen()}\nactor: ${state}\nhook.log: ${hookLog(group.home) || '(none)'}\n${extra()}`;
    },
  };
}

/**
 * A send to an actor that waits on a permission prompt: after `heldForMs` it is still held by the
 * send gate (nothing claimed, nothing typed, the model asked nothing new). Returns its event id.
 */
export async function sendHeld(group: DaemonGroup, probe: ActorProbe, model: FakeModel, text: string, heldForMs = 3_000): Promise<string> {
  const requestsBefore = model.requests.filter((r) => r.main).length;
  const { event } = await group.client.call('send', { group_id: group.groupId, text, to: [probe.actorId], message_mode: 'send' });
  await new Promise((resolve) => setTimeout(resolve, heldForMs));
  expect(await probe.status(event.id)).toMatchObject({ delivery_state: null, delivery_confirmation: null });
  expect(await probe.actor()).toMatchObject({ effective_working_state: 'waiting', input_state: 'waiting_user' });
  expect(model.requests.filter((r) => r.main)).toHaveLength(requestsBefore);
  expect(await probe.screen()).not.toContain(text);
  return event.id;
}

/** Keys typed at the actor's terminal through term_attach, with the writer role (as the Web terminal types them). */
export async function typeAtTerminal(group: DaemonGroup, actorId: string, keys: string): Promise<void> {
  await using attachment = await group.client.openTermAttach({ group_id: group.groupId, actor_id: actorId, mode: 'control' });
  expect(attachment.handshake.terminal_writable).toBe(true);
  attachment.socket.write(keys);
  await new Promise((resolve) => setTimeout(resolve, 300)); // the daemon reads the keys before the socket closes
}
