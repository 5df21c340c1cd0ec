import { randomBytes } from 'node:crypto';
import { DELIVERY_CONFIRMATION_KIND, isEventOfKind, type CCCSEventV1, type EventOf } from '@cccc/ipc-protocol';
import { callBash, reply, thinkThenReply } from '../fake-model/index.js';
import { startClaudeTeam, type ClaudeTeam, type ClaudeTeamOptions } from './claude-team.js';
import { summarize, type CaseRow, type Sample } from './report.js';

// The fault-matrix cases against the real claude TUI. Each run delivers and measures what reached
// the model, what the screen shows, and the claim → confirmation latency from the ledger.

const CONFIRM_WINDOW_MS = 8_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function poll<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined || Date.now() > deadline) return v;
    await sleep(100);
  }
}

const deliveryStates = (team: ClaudeTeam, eventId: string) =>
  team
    .ledger()
    .flatMap((e) => (isEventOfKind(e, 'runtime.delivery') && e.data.source_event_id === eventId ? [e.data.state] : []))
    .join(',');

const marker = () => `m${randomBytes(4).toString('hex')}`;
const idle = (team: ClaudeTeam) => poll(async () => ((await team.workingState()) === 'idle' ? true : undefined), 60_000);

async function measure(team: ClaudeTeam, eventId: string, mark: string): Promise<Sample> {
  const delivery = (state: 'claimed' | 'accepted') =>
    team.ledger().find((e) => isEventOfKind(e, 'runtime.delivery') && e.data.source_event_id === eventId && e.data.state === state);
  const confirmationOf = () =>
    team.ledger().find((e): e is CCCSEventV1 & EventOf<typeof DELIVERY_CONFIRMATION_KIND> => isEventOfKind(e, DELIVERY_CONFIRMATION_KIND) && e.data.source_event_id === eventId);
  const conf = await poll(confirmationOf, CONFIRM_WINDOW_MS + 30_000);
  // The prompt hook fires before claude calls the model: wait for the text there, then for the
  // turn to end, so a second copy would be counted too.
  await poll(() => (team.model.countOccurrences(mark) > 0 ? true : undefined), 30_000);
  await idle(team);
  const claimed = delivery('claimed');
  const accepted = delivery('accepted');
  const confirmation = conf ? conf.data.state : null;
  const settledBadly = team.ledger().some((e) => isEventOfKind(e, 'runtime.delivery') && e.data.source_event_id === eventId && (e.data.state === 'ambiguous' || e.data.state === 'failed'));
  return {
    modelCount: team.model.countOccurrences(mark),
    onScreen: (await team.screen()).includes(mark),
    confirmation,
    latencyMs: confirmation === 'confirmed' && claimed && conf ? Date.parse(conf.ts) - Date.parse(claimed.ts) : null,
    submitMs: claimed && accepted ? Date.parse(accepted.ts) - Date.parse(claimed.ts) : null,
    promptMs: confirmation === 'confirmed' && claimed && accepted && typeof conf?.data.prompt_hook_ms === 'number' ? Date.parse(accepted.ts) - Date.parse(claimed.ts) + conf.data.prompt_hook_ms : null,
    flagged: confirmation === 'unconfirmed' || settledBadly,
    trace: [
      ...team.ledger().flatMap((e) => (isEventOfKind(e, 'runtime.delivery') && e.data.source_event_id === eventId ? [`${e.data.state}${e.data.reason ? `(${e.data.reason})` : ''}`] : [])),
      conf ? `${conf.data.state}(${conf.data.evidence})` : 'no confirmation',
      `model×${team.model.countOccurrences(mark)}`,
    ].join(' → '),
  };
}

/**
 * A team whose session has had its first message (with the start-up prompt, one turn), that turn
 * over: a case's script then meets the case's own deliveries, never the start-up turn (which
 * would take a scripted Bash call and wait on a permission prompt before the case sent anything).
 */
async function readyTeam(options: Partial<ClaudeTeamOptions> = {}): Promise<ClaudeTeam> {
  const team = await startClaudeTeam({ confirmWindowMs: CONFIRM_WINDOW_MS, ...options });
  try {
    const mark = marker();
    const sample = await measure(team, await team.send(`warm-up ${mark}`), mark);
    if (sample.modelCount !== 1) throw new Error(`the warm-up message did not reach the model once: ${sample.trace}`);
    return team;
  } catch (error) {
    await team[Symbol.asyncDispose]();
    throw error;
  }
}

/**
 * Which team a case runs on: `shared`, the ready bypass-mode team the cases share; `permission`,
 * a ready team in claude's default permission mode (it asks before Bash); `own`, one per run.
 */
export type TeamKind = 'shared' | 'permission' | 'own';

export interface MatrixCase {
  readonly name: string;
  /** One run (the run's index given) on its team; returns one sample per measured delivery. */
  run(team: ClaudeTeam | undefined, index: number, options: Partial<ClaudeTeamOptions>): Promise<Sample[]>;
  readonly team?: TeamKind;
}

const single = (name: string, text: (mark: string) => string): MatrixCase => ({
  name,
  run: async (team) => {
    await idle(team!);
    const mark = marker();
    return [await measure(team!, await team!.send(text(mark)), mark)];
  },
});

export const MATRIX_CASES: readonly MatrixCase[] = [
  single('ready agent', (m) => `ready ${m}`),
  {
    name: 'busy agent (mid-turn)',
    run: async (team) => {
      const t = team!;
      await idle(t);
      t.model.setScript([thinkThenReply(3_000, 'slow turn done')]);
      const first = marker();
      const firstId = await t.send(`busy first ${first}`);
      await poll(async () => ((await t.workingState()) === 'working' ? true : undefined), 30_000);
      const mark = marker();
      const id = await t.send(`while busy ${mark}`);
      return [await measure(t, firstId, first), await measure(t, id, mark)];
    },
  },
  {
    name: 'fresh launch',
    team: 'own',
    run: async (_shared, _index, options) => {
      await using team = await startClaudeTeam({ confirmWindowMs: CONFIRM_WINDOW_MS, ...options });
      // The agent is ready when its SessionStart hook is taken; the hook state shows it until the next hook.
      let readyAt: number | undefined;
      const watch = setInterval(() => (readyAt ??= team.sessionStartedAt()), 20);
      try {
        const mark = marker();
        const eventId = await team.send(`fresh ${mark}`);
        const sample = await measure(team, eventId, mark);
        const ledger = team.ledger();
        const conf = ledger.find((e) => isEventOfKind(e, DELIVERY_CONFIRMATION_KIND) && e.data.source_event_id === eventId && e.data.state === 'confirmed');
        if (readyAt === undefined) return [sample];
        // Where the time after SessionStart went: the delivery's claim (the start-up prompt goes
        // with it, unless CCCC_PREAMBLE_SEPARATE=1), the first prompt hook, the confirmation.
        const firstTurn = ledger.find((e) => e.kind === 'actor.activity' && JSON.stringify(e.data).includes('claude_hook_UserPromptSubmit'));
        const claim = ledger.find((e) => isEventOfKind(e, 'runtime.delivery') && e.data.source_event_id === eventId);
        const accepted = ledger.find((e) => isEventOfKind(e, 'runtime.delivery') && e.data.source_event_id === eventId && e.data.state === 'accepted');
        const at = (e: { ts: string } | undefined) => (e ? Date.parse(e.ts) - readyAt! : '-');
        const timeline = `SessionStart→ claim ${at(claim)}, submitted ${at(accepted)}, first prompt hook ${at(firstTurn)}, confirmed ${at(conf)} ms`;
        return [{ ...sample, readyMs: conf ? Date.parse(conf.ts) - readyAt : null, trace: `${sample.trace} | ${timeline}` }];
      } finally {
        clearInterval(watch);
      }
    },
  },
  single('long multi-line prompt (≥ 8 KiB)', (m) => `long ${m}\n${Array.from({ length: 120 }, (_, i) => `line ${i} ${'x'.repeat(64)}`).join('\n')}`),
  single('prompt starting with /', (m) => `/not-a-command ${m}`),
  single('prompt starting with @', (m) => `@nobody ${m}`),
  {
    name: 'several messages queued at once',
    run: async (team) => {
      const t = team!;
      await idle(t);
      const marks = [marker(), marker(), marker()];
      const ids = await Promise.all(marks.map((m, i) => t.send(`queued ${i} ${m}`)));
      return Promise.all(ids.map((id, i) => measure(t, id, marks[i]!)));
    },
  },
  {
    // Sent while claude asks whether it may run a Bash command: held (nothing typed into the
    // dialog), then delivered once after the user approves at the terminal.
    name: 'waiting on a permission prompt',
    team: 'permission',
    run: async (team) => {
      const t = team!;
      await idle(t);
      t.model.setScript([callBash(`touch marker-${marker()}`, 'Create a marker file'), reply('Marker created')]);
      await t.send(`please create a marker ${marker()}`);
      const waiting = await poll(async () => ((await t.workingState()) === 'waiting' ? true : undefined), 60_000);
      if (!waiting) return [{ modelCount: 0, onScreen: false, confirmation: null, latencyMs: null, violation: 'the agent never waited on the permission prompt' }];
      const mark = marker();
      const id = await t.send(`held ${mark}`);
      await sleep(1_500);
      const screen = await t.screen();
      const typedIntoPrompt = screen.includes(mark) || t.model.countOccurrences(mark) > 0;
      const stateThen = await t.workingState();
      const deliveriesThen = deliveryStates(t, id);
      await t.typeAtTerminal('\r'); // "1. Yes" is the highlighted choice
      const sample = await measure(t, id, mark);
      if (!typedIntoPrompt) return [sample];
      const seen = `on screen: ${screen.includes(mark)}, model: ${t.model.countOccurrences(mark)}, state: ${stateThen}, deliveries: ${deliveriesThen}`;
      return [{ ...sample, violation: `the held message was typed while the permission prompt waited (${seen})` }];
    },
  },
  {
    // actor_restart at a point of the delivery that moves with the run: right at the claim,
    // during the paste, around Enter, while the prompt hook runs.
    name: 'restarted mid-delivery',
    run: async (team, index) => {
      const t = team!;
      await idle(t);
      const mark = marker();
      const id = await t.send(`restart ${mark}`);
      await poll(() => (t.ledger().some((e) => isEventOfKind(e, 'runtime.delivery') && e.data.source_event_id === id) ? true : undefined), 30_000);
      await sleep((index % 6) * 120);
      const mainBefore = t.model.requests.filter((r) => r.main).length;
      await t.client.call('actor_restart', { group_id: t.groupId, actor_id: 'peer1' });
      const mainAtRestart = t.model.requests.filter((r) => r.main).length;
      const sample = await measure(t, id, mark);
      if (sample.modelCount > 0) return [sample];
      // What happened around the restart, in ms from the claim, for the log.
      const ledger = t.ledger();
      const claimAt = Date.parse(ledger.find((e) => isEventOfKind(e, 'runtime.delivery') && e.data.source_event_id === id)!.ts);
      const around = ledger
        .filter((e) => Date.parse(e.ts) >= claimAt - 50)
        .map((e) => {
          const detail = e.kind === 'actor.activity' ? JSON.stringify((e.data as { actors?: { id: string; effective_working_state?: string; effective_working_reason?: string }[] }).actors?.find((a) => a.id === 'peer1')?.effective_working_reason) : '';
          return `${Date.parse(e.ts) - claimAt}:${e.kind}${detail}`;
        });
      return [{ ...sample, trace: `${sample.trace} | main requests before restart ${mainBefore}, after ${mainAtRestart} | ${around.join(' ')}` }];
    },
  },
];

/** CCCC_MATRIX_CASES: a comma-separated list of words; only cases whose name has one run. */
export function selectedCases(filter = process.env.CCCC_MATRIX_CASES): readonly MatrixCase[] {
  const words = (filter ?? '').split(',').map((w) => w.trim().toLowerCase()).filter((w) => w !== '');
  return words.length === 0 ? MATRIX_CASES : MATRIX_CASES.filter((c) => words.some((w) => c.name.toLowerCase().includes(w)));
}

/**
 * Runs every case `runs` times. The cases on a ready agent share one team (each run starts from
 * an idle agent; starting Claude Code and its preamble turn is most of a case's cost), and a
 * case that owns its team (a fresh launch) starts one per run.
 */
export async function runMatrix(
  runs: number,
  cases: readonly MatrixCase[] = selectedCases(),
  log: (line: string) => void = () => {},
  options: Partial<ClaudeTeamOptions> = {},
): Promise<CaseRow[]> {
  const rows: CaseRow[] = [];
  const teams = new Map<TeamKind, ClaudeTeam>();
  const teamFor = async (kind: TeamKind): Promise<ClaudeTeam | undefined> => {
    if (kind === 'own') return undefined;
    let team = teams.get(kind);
    if (!team) teams.set(kind, (team = await readyTeam({ ...options, ...(kind === 'permission' ? { permissionMode: 'default' } : {}) })));
    return team;
  };
  try {
    for (const c of cases) {
      const samples: Sample[] = [];
      const team = await teamFor(c.team ?? 'shared');
      for (let i = 0; i < runs; i++) {
        const got = await c.run(team, i, options);
        for (const sample of got) log(`  ${c.name} #${i + 1}: ${sample.trace ?? ''}`);
        samples.push(...got);
      }
      const row = summarize(c.name, samples);
      log(`${c.name}: ${JSON.stringify(row)}`);
      rows.push(row);
    }
  } finally {
    for (const team of teams.values()) await team[Symbol.asyncDispose]();
  }
  return rows;
}
