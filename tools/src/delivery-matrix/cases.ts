import { randomBytes } from 'node:crypto';
import { DELIVERY_CONFIRMATION_KIND, isEventOfKind, type CCCSEventV1, type EventOf } from '@cccc/ipc-protocol';
import { thinkThenReply } from '../fake-model/index.js';
import { startClaudeTeam, type ClaudeTeam } from './claude-team.js';
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
  return {
    modelCount: team.model.countOccurrences(mark),
    onScreen: (await team.screen()).includes(mark),
    confirmation,
    latencyMs: confirmation === 'confirmed' && claimed && conf ? Date.parse(conf.ts) - Date.parse(claimed.ts) : null,
    submitMs: claimed && accepted ? Date.parse(accepted.ts) - Date.parse(claimed.ts) : null,
  };
}

/** A team whose start-up turn (the preamble) is over. */
async function readyTeam(): Promise<ClaudeTeam> {
  const team = await startClaudeTeam({ confirmWindowMs: CONFIRM_WINDOW_MS });
  await poll(() => (team.model.requests.some((r) => r.main) ? true : undefined), 90_000);
  await idle(team);
  return team;
}

export interface MatrixCase {
  readonly name: string;
  /** One run on a ready team (or its own, for `fresh`); returns one sample per measured delivery. */
  run(team: ClaudeTeam | undefined): Promise<Sample[]>;
  readonly ownTeam?: boolean;
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
    ownTeam: true,
    run: async () => {
      await using team = await startClaudeTeam({ confirmWindowMs: CONFIRM_WINDOW_MS });
      const mark = marker();
      return [await measure(team, await team.send(`fresh ${mark}`), mark)];
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
];

/**
 * Runs every case `runs` times. The cases on a ready agent share one team (each run starts from
 * an idle agent; starting Claude Code and its preamble turn is most of a case's cost), and a
 * case that owns its team (a fresh launch) starts one per run.
 */
export async function runMatrix(runs: number, cases: readonly MatrixCase[] = MATRIX_CASES, log: (line: string) => void = () => {}): Promise<CaseRow[]> {
  const rows: CaseRow[] = [];
  let shared: ClaudeTeam | undefined;
  try {
    for (const c of cases) {
      const samples: Sample[] = [];
      if (c.ownTeam) {
        for (let i = 0; i < runs; i++) samples.push(...(await c.run(undefined)));
      } else {
        shared ??= await readyTeam();
        for (let i = 0; i < runs; i++) samples.push(...(await c.run(shared)));
      }
      const row = summarize(c.name, samples);
      log(`${c.name}: ${JSON.stringify(row)}`);
      rows.push(row);
    }
  } finally {
    await shared?.[Symbol.asyncDispose]();
  }
  return rows;
}
