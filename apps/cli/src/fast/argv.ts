// The argument shapes `cccc ping|send|reply` takes on the fast path (bin/cccc.js → cli-fast.cjs).
// Pure. Anything this does not fully understand returns null and the full CLI (commander) handles
// it, so help, usage errors and their exact wording stay commander's: the fast path only ever
// runs command lines that commander would accept and read the same way.

export interface PingCommand {
  readonly command: 'ping';
  readonly json: boolean;
}

export interface MessageCommand {
  readonly command: 'send' | 'reply';
  /** `reply`'s <event_id>; '' for `send`. */
  readonly eventId: string;
  readonly text: string;
  readonly group?: string;
  readonly by?: string;
  readonly json: boolean;
  /** As commander collects `--to`: comma-split, trimmed, empties dropped, repeats appended. */
  readonly to?: readonly string[];
  /** The CLI spelling (`request-reply`); `send` defaults to 'send', `reply` to none. */
  readonly mode?: string;
  readonly insight?: string;
}

export type FastCommand = PingCommand | MessageCommand;

/** The options each command declares (see commands/ping.ts and commands/messages.ts). */
const FLAGS: Record<FastCommand['command'], ReadonlySet<string>> = {
  ping: new Set(['json']),
  send: new Set(['json']),
  reply: new Set(['json']),
};
const VALUED: Record<FastCommand['command'], ReadonlySet<string>> = {
  ping: new Set(),
  send: new Set(['group', 'by', 'to', 'mode', 'insight']),
  reply: new Set(['group', 'by', 'to', 'mode', 'insight']),
};
const MODES: Record<FastCommand['command'], readonly string[]> = { ping: [], send: ['send', 'request-reply', 'mail'], reply: ['send', 'mail'] };
const POSITIONALS: Record<FastCommand['command'], number> = { ping: 0, send: 1, reply: 2 };

/** The commands the fast path may serve: bin/cccc.js loads it only for these. */
export const FAST_COMMANDS: ReadonlySet<string> = new Set(Object.keys(POSITIONALS));

function isFastName(name: string | undefined): name is FastCommand['command'] {
  return name !== undefined && FAST_COMMANDS.has(name);
}

/** Commander's collector for `--to` (option-parsers.ts `collectList`), without commander. */
function addRecipients(previous: readonly string[] | undefined, value: string): string[] {
  return [
    ...(previous ?? []),
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

/**
 * `process.argv` → the command to run, or null to hand it to the full CLI. Understood: the
 * command's own long options as `--name value` (a value that does not start with '-') or
 * `--name=value`, `--json`, and exactly the command's positionals (none starting with '-'),
 * in any order. Not understood: help, `--`, short or unknown options, a missing or dash-led
 * value, a `--mode` outside its choices, too few or too many positionals.
 */
export function parseFastArgv(argv: readonly string[]): FastCommand | null {
  const name = argv[2];
  if (!isFastName(name)) return null;
  const positionals: string[] = [];
  const values: { group?: string; by?: string; mode?: string; insight?: string } = {};
  let to: string[] | undefined;
  let json = false;
  for (let i = 3; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('-')) {
      positionals.push(token);
      continue;
    }
    if (!token.startsWith('--') || token === '--') return null;
    const eq = token.indexOf('=');
    const option = eq < 0 ? token.slice(2) : token.slice(2, eq);
    if (FLAGS[name].has(option)) {
      if (eq >= 0) return null;
      json = true;
      continue;
    }
    if (!VALUED[name].has(option)) return null;
    let value: string;
    if (eq >= 0) value = token.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('-')) return null;
      value = next;
      i++;
    }
    if (option === 'to') to = addRecipients(to, value);
    else values[option as keyof typeof values] = value;
  }
  if (positionals.length !== POSITIONALS[name]) return null;
  if (name === 'ping') return { command: 'ping', json };
  if (values.mode !== undefined && !MODES[name].includes(values.mode)) return null;
  const mode = values.mode ?? (name === 'send' ? 'send' : undefined);
  const [first, second] = positionals as [string, string?];
  return {
    command: name,
    eventId: name === 'reply' ? first : '',
    text: name === 'reply' ? second! : first,
    json,
    ...(values.group !== undefined ? { group: values.group } : {}),
    ...(values.by !== undefined ? { by: values.by } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(mode !== undefined ? { mode } : {}),
    ...(values.insight !== undefined ? { insight: values.insight } : {}),
  };
}
