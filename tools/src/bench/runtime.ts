// Runtime section (issue 6): daemon RSS with 20 running fake-agent actors (target <= 130 MB since issue 35) and
// send -> `accepted` latency through the real daemon for a ready agent (target: submit delay +
// 100 ms), measured with CCCC_SUBMIT_DELAY_MS=0 and with the default delay.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DaemonClient, type EventStream } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { startBenchDaemon } from './ping.js';
import { fmt, printTable, summarize } from './stats.js';

const ACTORS = 20;
const PROMPT = 'fake-agent>'; // terminal_tail trims the trailing space
const DEFAULT_SUBMIT_DELAY_MS = 1500;

/** VmRSS of a process in MB (Linux /proc), or NaN where /proc is unavailable. */
function rssMB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

async function setupGroup(client: DaemonClient, home: string, title: string): Promise<string> {
  const gid = (await client.call('group_create', { title })).group_id;
  const scope = join(home, `scope-${title}`);
  mkdirSync(scope, { recursive: true });
  await client.call('attach', { path: scope, group_id: gid });
  return gid;
}

/** Polls until every actor is running and its terminal shows the fake agent's prompt. */
async function waitAllReady(client: DaemonClient, gid: string, ids: readonly string[], timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  const pending = new Set(ids);
  while (pending.size > 0) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`${pending.size} actors not ready after ${timeoutMs} ms: ${[...pending].join(', ')}`);
    const running = new Set((await client.call('actor_list', { group_id: gid })).actors.filter((a) => a.running).map((a) => a.id));
    for (const aid of [...pending]) {
      if (!running.has(aid)) continue;
      const tail = await client.call('terminal_tail', { group_id: gid, actor_id: aid, max_chars: 2000 });
      if (tail.text.includes(PROMPT)) pending.delete(aid);
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 100));
  }
  return performance.now() - t0;
}

/** The next `runtime.delivery` event in `state` for `aid` (other states and actors are skipped). */
async function nextDelivery(it: AsyncIterator<unknown>, aid: string, state: string): Promise<void> {
  for (;;) {
    const r = await it.next();
    if (r.done) throw new Error('events stream closed');
    const item = r.value as { t?: string; event?: { kind: string; data: Record<string, unknown> } };
    if (item.t !== 'event' || item.event?.kind !== 'runtime.delivery') continue;
    const data = item.event.data;
    if (data.actor_id !== aid) continue;
    if (data.state === state) return;
    if (data.state === 'failed' || data.state === 'ambiguous') throw new Error(`delivery to ${aid} ended ${String(data.state)}: ${String(data.reason)}`);
  }
}

/** Daemon RSS idle, then with ACTORS running fake agents (all at their prompt). */
async function rssWithActors(): Promise<{ idle: number; running: number; readyMs: number }> {
  const daemon = await startBenchDaemon();
  const client = new DaemonClient({ home: daemon.home });
  try {
    const gid = await setupGroup(client, daemon.home, 'bench-rss');
    await new Promise((r) => setTimeout(r, 500));
    const idle = rssMB(daemon.child.pid!);
    const ids = Array.from({ length: ACTORS }, (_, i) => `agent${String(i + 1).padStart(2, '0')}`);
    for (const aid of ids) await client.call('actor_add', { group_id: gid, actor_id: aid, runtime: 'custom', command: fakeAgentArgv([]) });
    await client.call('group_start', { group_id: gid });
    const readyMs = await waitAllReady(client, gid, ids, 120_000);
    // Let start-up work (preambles, first renders) settle before reading RSS.
    await new Promise((r) => setTimeout(r, 2000));
    await waitAllReady(client, gid, ids, 10_000);
    const running = rssMB(daemon.child.pid!);
    await client.call('group_stop', { group_id: gid });
    return { idle, running, readyMs };
  } finally {
    await daemon.stop();
  }
}

/** Milliseconds from issuing `send` to its `accepted` runtime.delivery, for a ready agent. */
async function sendAcceptedMs(submitDelayMs: number | undefined, n: number): Promise<number[]> {
  const daemon = await startBenchDaemon(submitDelayMs === undefined ? {} : { CCCC_SUBMIT_DELAY_MS: String(submitDelayMs) });
  const client = new DaemonClient({ home: daemon.home });
  let stream: EventStream | undefined;
  try {
    const gid = await setupGroup(client, daemon.home, 'bench-send');
    const aid = 'peer1';
    await client.call('actor_add', { group_id: gid, actor_id: aid, runtime: 'custom', command: fakeAgentArgv([]) });
    await client.call('actor_start', { group_id: gid, actor_id: aid });
    await waitAllReady(client, gid, [aid], 30_000);
    stream = await client.openEventsStream({ group_id: gid, kinds: ['runtime.delivery'] });
    const it = stream[Symbol.asyncIterator]();
    // Warm-up: the first delivery also carries any start-up preamble; it is not counted.
    await client.call('send', { group_id: gid, text: 'warm-up', to: [aid], message_mode: 'send' });
    await nextDelivery(it, aid, 'accepted');
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await client.call('send', { group_id: gid, text: `bench message ${i}`, to: [aid], message_mode: 'send' });
      await nextDelivery(it, aid, 'accepted');
      samples.push(performance.now() - t);
    }
    return samples;
  } finally {
    stream?.close();
    await daemon.stop();
  }
}

export async function benchRuntime(): Promise<void> {
  const rss = await rssWithActors();
  printTable(`runtime: daemon RSS (VmRSS) with ${ACTORS} running fake-agent actors`, [
    { daemon: 'idle, one empty group (baseline)', 'RSS MB': rss.idle.toFixed(1), target: '' },
    { daemon: `${ACTORS} actors running, all at their prompt (ready in ${fmt(rss.readyMs)})`, 'RSS MB': rss.running.toFixed(1), target: '<= 130 MB (issue 35; issue 6 asked <= 250)' },
  ]);
  const fast = summarize(await sendAcceptedMs(0, 20));
  const slow = summarize(await sendAcceptedMs(undefined, 5));
  printTable('runtime: send -> runtime.delivery accepted (events_stream), ready fake agent', [
    { submit_delay: 'CCCC_SUBMIT_DELAY_MS=0', p50: fmt(fast.p50), p99: fmt(fast.p99), n: fast.n, target: '<= 100 ms' },
    { submit_delay: `default (${DEFAULT_SUBMIT_DELAY_MS} ms)`, p50: fmt(slow.p50), p99: fmt(slow.p99), n: slow.n, target: `<= ${DEFAULT_SUBMIT_DELAY_MS + 100} ms` },
  ]);
}
