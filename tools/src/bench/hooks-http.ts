// Hooks over HTTP (issue 35): the real Claude Code as a daemon actor runs turns of 20 Bash tool
// calls (the same fake model script) three ways in one run: with the daemon's command hooks
// (CCCC_CLAUDE_HTTP_HOOKS=0: `cccc hook claude-state` per event), with its http hooks (the
// default), and unhooked (the baseline: claude behind a wrapper the daemon does not hook).
// Timed at the fake model: each tool round is the gap between two model requests, which holds
// the model's answer, PreToolUse, the Bash run and PostToolUse; a round's hook overhead is its gap
// minus the unhooked median gap, shared by its two hook events.
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { callBash, reply, type RecordedRequest } from '../fake-model/index.js';
import { startClaudeTeam, type ClaudeTeam } from '../delivery-matrix/claude-team.js';
import { fmt, printTable } from './stats.js';

const TOOL_CALLS = 20;
const TURNS = Number(process.env.CCCC_BENCH_HOOKS_HTTP_TURNS ?? 3);

type Mode = { name: string; daemonEnv?: Record<string, string>; unhooked?: boolean; bareHttp?: boolean };
const MODES: Mode[] = [
  { name: 'unhooked (baseline)', unhooked: true },
  { name: 'command hooks', daemonEnv: { CCCC_CLAUDE_HTTP_HOOKS: '0' } },
  { name: 'http hooks', daemonEnv: {} },
  // Claude's own cost of an http hook: unhooked by the daemon, Pre/PostToolUse POSTed to a bare
  // loopback server that answers `{}` at once.
  { name: 'http hooks to a bare server (floor)', unhooked: true, bareHttp: true },
];

/** A loopback server answering every POST with `{}`, timing each request from arrival to answer. */
async function bareServer(): Promise<{ url: string; served: number[]; close: () => Promise<void> }> {
  const served: number[] = [];
  const server = createServer((req, res) => {
    const t = performance.now();
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
      res.end('{}');
      served.push(performance.now() - t);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, served, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const pct = (samples: number[], q: number): number => {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function poll<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`hooks-http bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One turn: the model's requests, from the prompt's to the one answered with the final text. */
async function runTurn(team: ClaudeTeam, label: string, tools: number): Promise<RecordedRequest[]> {
  const done = `${label} done`;
  team.model.setScript([...Array.from({ length: tools }, (_, i) => callBash(`true ${label}-${i}`, `Step ${i}`)), reply(done)]);
  const before = team.model.requests.length;
  await team.send(`${label}: run the steps`);
  await poll(async () => ((await team.screen()).includes(done) ? true : undefined), 120_000, `${label} on screen`);
  // The Stop hook and the prompt box settle before the next send.
  await new Promise((r) => setTimeout(r, 1_500));
  const main = team.model.requests.slice(before).filter((r) => r.main);
  if (main.length !== tools + 1) throw new Error(`hooks-http bench: ${label} took ${main.length} model requests, expected ${tools + 1}`);
  return main;
}

/** Where the daemon pointed this launch's http hooks, and the launch's identity (from its files). */
function hookedLaunch(team: ClaudeTeam): { url: string; token: string; sessionId: string } {
  const dir = join(team.home, 'daemon');
  const one = (sub: string) => JSON.parse(readFileSync(join(dir, sub, readdirSync(join(dir, sub))[0]!), 'utf8')) as Record<string, unknown>;
  const launch = one('runtime-hook-launch');
  const argv = readFileSync(`/proc/${String(launch.pid)}/cmdline`, 'utf8').split('\0');
  const hooks = (JSON.parse(argv[argv.indexOf('--settings') + 1]!) as { hooks: Record<string, Array<{ hooks: Array<{ url?: string }> }>> }).hooks;
  return { url: hooks.PreToolUse!.at(-1)!.hooks[0]!.url!, token: String(launch.launch_token), sessionId: String(one('claude-hook-state').session_id) };
}

/** The daemon's side alone: Pre/PostToolUse POSTs to its listener, as claude sends them, answered = committed. */
async function directPosts(team: ClaudeTeam, pairs: number): Promise<number[]> {
  const { url, token, sessionId } = hookedLaunch(team);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { 'content-type': 'application/json', 'x-cccc-group-id': team.groupId, 'x-cccc-actor-id': 'peer1', 'x-cccc-launch-token': token };
  const post = (body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers, agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(res.statusCode) : reject(new Error(`hooks-http bench: direct POST answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  const samples: number[] = [];
  for (let i = 0; i < pairs + 10; i++) {
    for (const event of ['PreToolUse', 'PostToolUse']) {
      const body = JSON.stringify({ session_id: sessionId, transcript_path: '/x.jsonl', cwd: '/x', permission_mode: 'bypassPermissions', hook_event_name: event, tool_name: 'Bash', tool_use_id: `toolu_direct_${i}`, tool_input: { command: 'true' } });
      const t = performance.now();
      await post(body);
      if (i >= 10) samples.push(performance.now() - t);
    }
  }
  agent.destroy();
  return samples;
}

type ModeResult = { turnMs: number[]; gaps: number[]; direct?: number[]; bareServed?: number[] };

async function runMode(mode: Mode): Promise<ModeResult> {
  const bare = mode.bareHttp ? await bareServer() : undefined;
  await using _bare = { [Symbol.asyncDispose]: async () => bare?.close() };
  const hook = bare && [{ hooks: [{ type: 'http', url: bare.url, timeout: 3 }] }];
  const userSettings = hook ? { hooks: { PreToolUse: hook, PostToolUse: hook } } : undefined;
  await using team = await startClaudeTeam({ confirmWindowMs: 15_000, daemonEnv: mode.daemonEnv ?? {}, unhooked: mode.unhooked ?? false, ...(userSettings ? { userSettings } : {}) });
  await runTurn(team, 'warm-up', 1); // the start-up prompt goes with the first message
  const turnMs: number[] = [];
  const gaps: number[] = [];
  for (let t = 0; t < TURNS; t++) {
    const main = await runTurn(team, `turn-${t}`, TOOL_CALLS);
    const at = main.map((r) => r.receivedAtMs!);
    turnMs.push(at.at(-1)! - at[0]!);
    for (let i = 1; i < at.length; i++) gaps.push(at[i]! - at[i - 1]!);
  }
  // The hooked modes end on the daemon's hook-driven working state, as users see it.
  if (!mode.unhooked) {
    await poll(async () => ((await team.workingState()) === 'idle' ? true : undefined), 30_000, `${mode.name}: idle`);
  }
  // Every event of the measured turns was taken: a refused one would make the figures meaningless.
  const refused = readFileSync(join(team.home, 'daemon', 'ccccd.log'), 'utf8').match(/http hook (request|event) refused.*/g);
  if (refused) throw new Error(`hooks-http bench: ${mode.name}: the daemon refused http hook events: ${refused.slice(0, 3).join('; ')}`);
  const direct = !mode.unhooked && !mode.daemonEnv?.CCCC_CLAUDE_HTTP_HOOKS ? await directPosts(team, 100) : undefined;
  return { turnMs, gaps, ...(direct ? { direct } : {}), ...(bare ? { bareServed: [...bare.served] } : {}) };
}

export async function benchHooksHttp(): Promise<void> {
  console.log(`\n## hooks-http (real claude as a daemon actor, ${TURNS} turns of ${TOOL_CALLS} Bash calls per mode, same fake model script)\n`);
  const results = new Map<string, ModeResult>();
  for (const mode of MODES) results.set(mode.name, await runMode(mode));
  const base = results.get(MODES[0]!.name)!;
  const baseGap = pct(base.gaps, 0.5);
  printTable('hooks-http: one turn of 20 tool calls (first to last model request) and one tool round (model request to the next)', [
    ...MODES.map((m) => {
      const r = results.get(m.name)!;
      return { mode: m.name, 'turn p50': fmt(pct(r.turnMs, 0.5)), 'turn max': fmt(Math.max(...r.turnMs)), 'round p50': fmt(pct(r.gaps, 0.5)), 'round p99': fmt(pct(r.gaps, 0.99)), rounds: r.gaps.length };
    }),
  ]);
  // Two hook events (PreToolUse, PostToolUse) per round.
  const overhead = (name: string) => results.get(name)!.gaps.map((g) => (g - baseGap) / 2);
  const rows = MODES.slice(1).map((m) => {
    const o = overhead(m.name);
    return { hooks: m.name, 'per-event p50': fmt(pct(o, 0.5)), 'per-event p99': fmt(pct(o, 0.99)), events: o.length * 2, target: m.name === 'http hooks' ? 'p50 <= 5 ms, p99 <= 20 ms' : '' };
  });
  const cmd = pct(overhead('command hooks'), 0.5);
  const http = pct(overhead('http hooks'), 0.5);
  rows.push({ hooks: 'command / http (p50)', 'per-event p50': `${(cmd / Math.max(http, 0.001)).toFixed(1)}x`, 'per-event p99': '', events: 0, target: '' });
  printTable(`hooks-http: hook overhead per event = (round - unhooked median round ${fmt(baseGap)}) / 2`, rows);
  const direct = results.get('http hooks')!.direct ?? [];
  const served = results.get('http hooks to a bare server (floor)')!.bareServed ?? [];
  printTable('hooks-http: the server side of one http hook event (keep-alive POST to answer)', [
    { path: "daemon listener: Pre/PostToolUse POST -> 200 (committed, fsynced), from this process", p50: fmt(pct(direct, 0.5)), p99: fmt(pct(direct, 0.99)), n: direct.length, target: 'p50 <= 5 ms, p99 <= 20 ms' },
    { path: "bare server (baseline, same run): claude's POSTs, arrival -> answer", p50: fmt(pct(served, 0.5)), p99: fmt(pct(served, 0.99)), n: served.length, target: '' },
  ]);
}
