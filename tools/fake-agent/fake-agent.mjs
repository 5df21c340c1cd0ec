#!/usr/bin/env node
// A scripted TUI agent that stands in for real agent CLIs (claude, codex, ...) in tests, demos and
// benchmarks. It behaves like one towards a PTY: alternate screen, bracketed paste, raw-mode
// input, a prompt, and a reply per submitted input. Plain Node, no build step, no dependencies.
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { applyOverrides, codexHooks } from './codex-config.mjs';
import { SessionHooks, claudeHooks } from './hooks.mjs';

const ESC = '\x1b';
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;

// Which agent it plays: `--as codex|claude` (first argument) or FAKE_AGENT_AS; Claude by default.
// Installed as a `codex` shim that runs `fake-agent.mjs --as codex "$@"`, it reads Codex's
// `-c key=value` overrides and answers `codex --version` and `codex ... mcp list` like Codex.
function personalityOf(argv, env) {
  if (argv[0] === '--as') return { personality: argv[1] === 'codex' ? 'codex' : 'claude', rest: argv.slice(2) };
  if (argv[0]?.startsWith('--as=')) return { personality: argv[0].slice(5) === 'codex' ? 'codex' : 'claude', rest: argv.slice(1) };
  return { personality: env.FAKE_AGENT_AS === 'codex' ? 'codex' : 'claude', rest: argv };
}

const CODEX_VERSION = 'codex-cli 0.130.0';
// Flags of the real CLIs, accepted and ignored so that every launch the daemon (or a user's
// hand-written command) builds runs the fake instead of failing on an unknown option. Sources:
// the runtime catalog's default commands (libs/pty-runtime), the hook and MCP launch
// contributors (apps/daemon/src/runtime, libs/mcp/src/launch.ts), and `claude --help` /
// `codex --help` for the flags users commonly add. `--settings` and `-c` are read, not ignored.
const CLAUDE_FLAGS = new Set([
  '--dangerously-skip-permissions', '--allow-dangerously-skip-permissions', '--strict-mcp-config',
  '-c', '--continue', '--verbose', '-p', '--print', '-d', '--debug', '--ide', '--include-partial-messages',
  '--replay-user-messages', '--fork-session',
]);
const CLAUDE_VALUE_FLAGS = new Set([
  '--mcp-config', '--permission-mode', '--append-system-prompt', '--system-prompt', '--model', '--fallback-model',
  '--session-id', '--output-format', '--input-format', '--add-dir', '--allowedTools', '--allowed-tools',
  '--disallowedTools', '--disallowed-tools', '--agents', '--setting-sources', '--max-turns', '--permission-prompt-tool',
]);
// `--resume [sessionId]` / `-r`: the id is optional, as in Claude Code.
const CLAUDE_OPTIONAL_VALUE_FLAGS = new Set(['-r', '--resume']);
const CODEX_FLAGS = new Set(['--dangerously-bypass-approvals-and-sandbox', '--search', '--yolo', '--full-auto', '--oss', '--skip-git-repo-check']);
const CODEX_VALUE_FLAGS = new Set([
  '-m', '--model', '-p', '--profile', '-s', '--sandbox', '-a', '--ask-for-approval', '-C', '--cd',
  '-i', '--image', '--add-dir', '--enable', '--disable', '--local-provider',
]);

/** `--flag=value` → ['--flag', 'value']; anything else → [arg, undefined]. */
function splitInline(arg) {
  const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
  return eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}

function parseOptions(personality, argv, env) {
  const opts = {
    personality,
    thinkingMs: Number(env.FAKE_AGENT_THINKING_MS ?? 0),
    // How long the turn's tool runs (between PreToolUse and PostToolUse), as a real tool takes time.
    toolMs: Number(env.FAKE_AGENT_TOOL_MS ?? 0),
    flood: Number(env.FAKE_AGENT_FLOOD ?? 0),
    bracketedPaste: env.FAKE_AGENT_NO_BRACKETED_PASTE ? false : true,
    exitAfter: Number(env.FAKE_AGENT_EXIT_AFTER ?? 0),
    title: env.FAKE_AGENT_TITLE ?? 'fake-agent',
    altScreen: env.FAKE_AGENT_NO_ALT_SCREEN ? false : true,
    startDelayMs: Number(env.FAKE_AGENT_START_DELAY_MS ?? 0),
    idlePromptMs: Number(env.FAKE_AGENT_IDLE_PROMPT_MS ?? 0),
    askPermission: Boolean(env.FAKE_AGENT_ASK_PERMISSION),
    // Each submitted input as one JSON line (tests read what was typed, whatever the screen kept).
    inputLog: env.FAKE_AGENT_INPUT_LOG ?? '',
    settings: [],
    overrides: [],
    subcommand: [],
    version: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = splitInline(a);
    const next = () => {
      if (i + 1 >= argv.length) {
        process.stderr.write(`fake-agent: option ${a} needs a value\n`);
        process.exit(2);
      }
      return argv[++i];
    };
    if (a === '--thinking-ms') opts.thinkingMs = Number(next());
    else if (a === '--tool-ms') opts.toolMs = Number(next());
    else if (a === '--flood') opts.flood = Number(next());
    else if (a === '--no-bracketed-paste') opts.bracketedPaste = false;
    else if (a === '--exit-after') opts.exitAfter = Number(next());
    else if (a === '--title') opts.title = String(next());
    else if (a === '--no-alt-screen') opts.altScreen = false;
    else if (a === '--start-delay-ms') opts.startDelayMs = Number(next());
    else if (a === '--idle-prompt-ms') opts.idlePromptMs = Number(next());
    else if (a === '--ask-permission') opts.askPermission = true;
    else if (a === '--version') opts.version = true;
    else if (personality === 'claude' && flag === '--settings') opts.settings.push(String(inline ?? next()));
    else if (personality === 'claude' && CLAUDE_FLAGS.has(a)) continue;
    else if (personality === 'claude' && CLAUDE_VALUE_FLAGS.has(flag)) inline ?? next();
    else if (personality === 'claude' && CLAUDE_OPTIONAL_VALUE_FLAGS.has(flag)) {
      if (inline === undefined && argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) i++;
    } else if (personality === 'codex' && (flag === '-c' || flag === '--config')) opts.overrides.push(String(inline ?? next()));
    else if (personality === 'codex' && CODEX_FLAGS.has(a)) continue;
    else if (personality === 'codex' && CODEX_VALUE_FLAGS.has(flag)) inline ?? next();
    else if (personality === 'codex' && !a.startsWith('-')) opts.subcommand.push(a);
    else if (a === '--help') {
      process.stdout.write('usage: fake-agent [--as claude|codex] [--thinking-ms N] [--tool-ms N] [--flood BYTES] [--no-bracketed-paste] [--exit-after N] [--title T] [--no-alt-screen] [--start-delay-ms N] [--idle-prompt-ms N] [--ask-permission]\n');
      process.exit(0);
    } else {
      process.stderr.write(`fake-agent: unknown option ${a}\n`);
      process.exit(2);
    }
  }
  return opts;
}

const { personality, rest } = personalityOf(process.argv.slice(2), process.env);
const opts = parseOptions(personality, rest, process.env);
const out = (s) => process.stdout.write(s);

if (opts.version) {
  // Claude Code's format at the first version with the hooks the daemon injects; Codex's own.
  out(personality === 'codex' ? `${process.env.FAKE_AGENT_VERSION ?? CODEX_VERSION}\n` : `${process.env.FAKE_AGENT_VERSION ?? '2.1.141'} (Claude Code)\n`);
  process.exit(0);
}

/**
 * Codex loads its configuration (the `-c` overrides included) before anything else, and refuses
 * to start on one it cannot load. FAKE_AGENT_CODEX_HOOKS=unsupported plays a Codex without hooks,
 * which rejects the `hooks` table: the daemon's pre-probe must then launch it unhooked.
 */
function codexConfigOrExit() {
  try {
    const config = applyOverrides(opts.overrides);
    if (config.hooks !== undefined && process.env.FAKE_AGENT_CODEX_HOOKS === 'unsupported') throw new Error('unknown field `hooks`');
    return { config, hooks: codexHooks(config) };
  } catch (error) {
    process.stderr.write(`Error loading config.toml: ${error.message}\n`);
    process.exit(1);
  }
}

const codex = personality === 'codex' ? codexConfigOrExit() : null;
if (codex && opts.subcommand.length > 0) {
  // `codex mcp list`: the daemon's pre-probe. Anything else is not a subcommand the fake knows.
  if (opts.subcommand.join(' ') !== 'mcp list') {
    process.stderr.write(`error: unrecognized subcommand '${opts.subcommand[0]}'\n`);
    process.exit(2);
  }
  const servers = Object.entries(codex.config.mcp_servers ?? {});
  if (servers.length === 0) out('No MCP servers configured yet. Try `codex mcp add my-tool -- my-command`.\n');
  else {
    out('Name  Command  Args  Env\n');
    for (const [name, s] of servers) out(`${name}  ${s.command ?? ''}  ${(s.args ?? []).join(' ')}  ${Object.keys(s.env ?? {}).map((k) => `${k}=*****`).join(', ') || '-'}\n`);
  }
  process.exit(0);
}

const hooks = new SessionHooks(personality, codex ? codex.hooks : claudeHooks(opts.settings));
const untrusted = codex ? Object.values(codex.hooks).flat().filter((h) => !h.trusted).length : 0;

const PROMPT = 'fake-agent> ';

// Floods are written with backpressure so a slow reader (the PTY) throttles us instead of
// buffering the whole flood in this process.
async function flood(bytes) {
  const line = 'fake-agent flood 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ\r\n';
  const block = line.repeat(Math.ceil(65536 / line.length));
  let left = bytes;
  while (left > 0) {
    const piece = left >= block.length ? block : block.slice(0, left);
    left -= piece.length;
    if (!process.stdout.write(piece)) await new Promise((r) => process.stdout.once('drain', r));
  }
}

let received = 0;
let pending = '';
let inPaste = false;
let carry = '';
let busy = Promise.resolve();
let exiting = false;
let idleTimer = null;
/** Set while a permission dialog is up: the next key answers it. */
let answerPermission = null;

// A hook-fired exit: SessionEnd first (bounded by the hook's timeout), then restore the terminal.
// A signal ends the agent without hooks, as it would end a killed process.
async function restoreAndExit(code, sessionEndReason) {
  if (exiting) return;
  exiting = true;
  if (idleTimer) clearTimeout(idleTimer);
  if (opts.bracketedPaste) out(`${ESC}[?2004l`);
  if (opts.altScreen) out(`${ESC}[?1049l`);
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  if (sessionEndReason) await hooks.fire('SessionEnd', { reason: sessionEndReason }, { inTurn: false });
  process.stdout.write('', () => process.exit(code));
}

/** What a submitted input asks of the script: `fake:permission`, `fake:fail`, `fake:subagent` anywhere in it. */
function directives(text) {
  return {
    permission: opts.askPermission || text.includes('fake:permission'),
    fail: text.includes('fake:fail'),
    subagent: text.includes('fake:subagent'),
  };
}

function toolCall(text) {
  const command = `echo ${JSON.stringify(text)}`;
  return personality === 'codex'
    ? { tool_name: 'exec_command', tool_use_id: hooks.newToolUseId(), tool_input: { command: ['bash', '-lc', command], workdir: process.cwd() } }
    : { tool_name: 'Bash', tool_use_id: hooks.newToolUseId(), tool_input: { command, description: 'Echo the input' } };
}

/** The permission dialog: y / Enter allows, n / Esc denies; anything else typed into it is lost. */
async function askPermission(tool) {
  await hooks.fire('PermissionRequest', { tool_name: tool.tool_name, tool_use_id: tool.tool_use_id, tool_input: tool.tool_input, permission_suggestions: [] }, { subject: tool.tool_name });
  await hooks.fire(
    'Notification',
    { message: `${personality === 'codex' ? 'Codex' : 'Claude'} needs your permission to use ${tool.tool_name}`, notification_type: 'permission_prompt' },
    { subject: 'permission_prompt', inTurn: false },
  );
  out(`\r\n[fake-agent] permission: allow ${tool.tool_name}? (y/n) `);
  const allowed = await new Promise((resolve) => (answerPermission = resolve));
  answerPermission = null;
  out(allowed ? 'yes\r\n' : 'no\r\n');
  return allowed;
}

/** One tool step: PreToolUse, maybe a permission dialog, then PostToolUse or PostToolUseFailure. */
async function toolStep(text, d) {
  const tool = toolCall(text);
  await hooks.fire('PreToolUse', tool, { subject: tool.tool_name });
  if (d.permission && !(await askPermission(tool))) return false;
  if (opts.toolMs > 0) await new Promise((r) => setTimeout(r, opts.toolMs));
  if (d.fail) {
    await hooks.fire('PostToolUseFailure', { ...tool, error: 'Command failed with exit code 1', is_interrupt: false }, { subject: tool.tool_name });
  } else {
    const response = personality === 'codex' ? { exit_code: 0, output: text } : { stdout: text, stderr: '', interrupted: false, isImage: false };
    await hooks.fire('PostToolUse', { ...tool, tool_response: response }, { subject: tool.tool_name });
  }
  return true;
}

async function subagentStep() {
  const agentId = hooks.newToolUseId().replace(/^(toolu|call)_/, 'agent_');
  await hooks.fire('SubagentStart', { agent_id: agentId, agent_type: 'general-purpose' }, { subject: 'general-purpose' });
  await hooks.fire('SubagentStop', { agent_id: agentId, agent_type: 'general-purpose', stop_hook_active: false }, { subject: 'general-purpose' });
}

function armIdlePrompt() {
  if (!(opts.idlePromptMs > 0) || exiting) return;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    busy = busy.then(() =>
      hooks.fire(
        'Notification',
        { message: `${personality === 'codex' ? 'Codex' : 'Claude'} is waiting for your input`, notification_type: 'idle_prompt' },
        { subject: 'idle_prompt', inTurn: false },
      ),
    );
  }, opts.idlePromptMs);
}

// Each submitted input is one turn: UserPromptSubmit (the daemon counts it as the delivery's
// confirmation), a tool step unless the agent has no tool hooks, the reply, then Stop.
function submit(text) {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  busy = busy.then(async () => {
    if (exiting) return;
    if (opts.thinkingMs > 0) {
      out('\r\n(thinking)');
      await new Promise((r) => setTimeout(r, opts.thinkingMs));
    }
    hooks.newTurn();
    if (opts.inputLog) appendFileSync(opts.inputLog, JSON.stringify({ text }) + '\n');
    await hooks.fire('UserPromptSubmit', { prompt: text });
    const d = directives(text);
    let allowed = true;
    if (d.subagent) await subagentStep();
    if (d.permission || d.fail || hooks.has('PreToolUse') || hooks.has('PostToolUse')) allowed = await toolStep(text, d);
    out(allowed ? `\r\n[fake-agent] received: ${text.replace(/\r?\n/g, '\\n')}\r\n` : '\r\n[fake-agent] tool use denied\r\n');
    await hooks.fire('Stop', personality === 'codex' ? { stop_hook_active: false, last_assistant_message: 'done' } : { stop_hook_active: false });
    received++;
    if (opts.exitAfter > 0 && received >= opts.exitAfter) return restoreAndExit(0, 'other');
    out(PROMPT);
    armIdlePrompt();
  });
}

// Input arrives in arbitrary pieces: paste markers may be split across reads, so keep the tail
// that could still be the start of a marker.
function onInput(chunk) {
  let s = carry + chunk;
  carry = '';
  while (s.length > 0) {
    if (inPaste) {
      const end = s.indexOf(PASTE_END);
      if (end < 0) {
        const keep = partialMarkerTail(s, PASTE_END);
        pending += s.slice(0, s.length - keep);
        carry = s.slice(s.length - keep);
        return;
      }
      pending += s.slice(0, end);
      inPaste = false;
      s = s.slice(end + PASTE_END.length);
      continue;
    }
    const ch = s[0];
    if (answerPermission) {
      s = s.slice(1);
      if (ch === 'y' || ch === 'Y' || ch === '\r') answerPermission(true);
      else if (ch === 'n' || ch === 'N' || (ch === ESC && s.length === 0)) answerPermission(false);
      continue;
    }
    if (s.startsWith(PASTE_START)) {
      inPaste = true;
      s = s.slice(PASTE_START.length);
      continue;
    }
    if (ch === ESC && PASTE_START.startsWith(s)) {
      carry = s;
      return;
    }
    s = s.slice(1);
    if (ch === '\r') {
      const text = pending;
      pending = '';
      submit(text);
    } else if (ch === '\x03') {
      restoreAndExit(130, 'prompt_input_exit');
    } else if (ch === '\x7f') {
      pending = pending.slice(0, -1);
      out('\b \b');
    } else {
      pending += ch;
      out(ch === '\n' ? '\r\n' : ch);
    }
  }
}

function partialMarkerTail(s, marker) {
  for (let k = Math.min(marker.length - 1, s.length); k > 0; k--) {
    if (marker.startsWith(s.slice(s.length - k))) return k;
  }
  return 0;
}

async function main() {
  if (opts.startDelayMs > 0) await new Promise((r) => setTimeout(r, opts.startDelayMs));
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', onInput);
  process.stdin.on('end', () => restoreAndExit(0, 'other'));
  process.on('SIGTERM', () => restoreAndExit(143));
  if (opts.altScreen) out(`${ESC}[?1049h${ESC}[H${ESC}[2J`);
  out(`${ESC}]0;${opts.title}\x07`);
  if (opts.bracketedPaste) out(`${ESC}[?2004h`);
  busy = busy.then(() => hooks.fire('SessionStart', { source: 'startup' }, { subject: 'startup', inTurn: false }));
  await busy;
  if (untrusted > 0) out(`${untrusted} hook(s) need review before they run\r\n`);
  out(`${opts.title} ready\r\n`);
  if (opts.flood > 0) {
    await flood(opts.flood);
    out('\r\n[fake-agent] flood done\r\n');
  }
  out(PROMPT);
}

main();
