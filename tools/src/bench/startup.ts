// Startup section (issue 35, cold paths users feel): group start with 20 actors, and the first
// delivery to a freshly started agent, for this daemon and — when CCCC_BENCH_REFERENCE_SRC names
// a checkout — the reference daemon in the same run. Both are driven the same way, over fresh
// unix-socket connections with the spec's ops, and run the same scripted fake agent as a
// `custom` runtime; an agent counts as ready when `terminal_tail` shows its prompt, and a
// message as delivered when its text shows in the agent's terminal.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { startBenchDaemon } from './ping.js';
import { rawCall, type RawEndpoint } from './raw-call.js';
import { referenceSkipNote, startReferenceDaemon } from './reference-daemon.js';
import { fmt, printTable, summarize } from './stats.js';
import { until } from './until.js';

const ACTORS = 20;
const ROUNDS = 3;
const PROMPT = 'fake-agent>';
const POLL_MS = 20;
const TIMEOUT_MS = 120_000;

interface Target {
  readonly name: string;
  readonly home: string;
  readonly endpoint: RawEndpoint;
}

async function call(target: Target, op: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = JSON.parse(await rawCall(target.endpoint, JSON.stringify({ v: 1, op, args }) + '\n')) as { ok: boolean; result?: Record<string, unknown>; error?: { code: string; message: string } };
  if (!answer.ok) throw new Error(`${target.name}: ${op} failed: ${answer.error?.code} ${answer.error?.message}`);
  return answer.result ?? {};
}

const median = (xs: number[]) => summarize(xs).p50;
const waitFor = (what: string, check: () => Promise<boolean>) => until(check, what, TIMEOUT_MS, POLL_MS);

async function runningIds(target: Target, gid: string): Promise<Set<string>> {
  const actors = (await call(target, 'actor_list', { group_id: gid })).actors as Array<{ id: string; running?: boolean }>;
  return new Set(actors.filter((a) => a.running).map((a) => a.id));
}

async function terminalShows(target: Target, gid: string, aid: string, text: string): Promise<boolean> {
  const tail = await call(target, 'terminal_tail', { group_id: gid, actor_id: aid, max_chars: 4000 }).catch(() => undefined);
  return typeof tail?.text === 'string' && tail.text.includes(text);
}

interface Figures {
  readonly running: number;
  readonly ready: number;
  readonly firstDelivery: number;
}

async function measure(target: Target): Promise<Figures> {
  const gid = (await call(target, 'group_create', { title: 'bench-startup' })).group_id as string;
  const scope = join(target.home, 'scope-startup');
  mkdirSync(scope, { recursive: true });
  await call(target, 'attach', { path: scope, group_id: gid });
  const ids = Array.from({ length: ACTORS }, (_, i) => `agent${String(i + 1).padStart(2, '0')}`);
  for (const aid of ids) await call(target, 'actor_add', { group_id: gid, actor_id: aid, runtime: 'custom', command: fakeAgentArgv([]) });

  const running: number[] = [];
  const ready: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    await call(target, 'group_start', { group_id: gid });
    await waitFor('all actors running', async () => (await runningIds(target, gid)).size === ACTORS);
    running.push(performance.now() - t0);
    const pending = new Set(ids);
    await waitFor('all actors at their prompt', async () => {
      for (const aid of [...pending]) if (await terminalShows(target, gid, aid, PROMPT)) pending.delete(aid);
      return pending.size === 0;
    });
    ready.push(performance.now() - t0);
    await call(target, 'group_stop', { group_id: gid });
    await waitFor('all actors stopped', async () => (await runningIds(target, gid)).size === 0);
  }

  // A fresh actor each round: started, then sent to at once; the message must reach its terminal.
  const deliveries: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const aid = `fresh${r}`;
    const text = `first-message-${r}-${Date.now()}`;
    await call(target, 'actor_add', { group_id: gid, actor_id: aid, runtime: 'custom', command: fakeAgentArgv([]) });
    const t0 = performance.now();
    await call(target, 'actor_start', { group_id: gid, actor_id: aid });
    await call(target, 'send', { group_id: gid, text, to: [aid], message_mode: 'send' });
    await waitFor(`the first message reaches ${aid}`, () => terminalShows(target, gid, aid, text));
    deliveries.push(performance.now() - t0);
    await call(target, 'actor_stop', { group_id: gid, actor_id: aid });
  }
  return { running: median(running), ready: median(ready), firstDelivery: median(deliveries) };
}

export async function benchStartup(): Promise<void> {
  const rows: Array<Record<string, string>> = [];
  const ours = await startBenchDaemon();
  try {
    const f = await measure({ name: 'cccc-ts', home: ours.home, endpoint: ours.endpoint });
    rows.push({ daemon: 'cccc-ts', [`group_start -> ${ACTORS} running`]: fmt(f.running), [`-> ${ACTORS} at their prompt`]: fmt(f.ready), 'actor_start + send -> text in its terminal': fmt(f.firstDelivery) });
  } finally {
    await ours.stop();
  }
  const reference = await startReferenceDaemon();
  if (reference) {
    try {
      const f = await measure({ name: 'reference', home: reference.home, endpoint: reference.endpoint });
      rows.push({ daemon: 'reference Python daemon (baseline)', [`group_start -> ${ACTORS} running`]: fmt(f.running), [`-> ${ACTORS} at their prompt`]: fmt(f.ready), 'actor_start + send -> text in its terminal': fmt(f.firstDelivery) });
    } finally {
      await reference.stop();
    }
  }
  printTable(`startup: ${ACTORS} fake-agent actors started together, and a first message to a freshly started agent (median of ${ROUNDS})`, rows);
  if (!reference) console.log(referenceSkipNote());
}
