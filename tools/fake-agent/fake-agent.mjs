#!/usr/bin/env node
// A scripted TUI agent that stands in for real agent CLIs (claude, codex, ...) in tests, demos and
// benchmarks. It behaves like one towards a PTY: alternate screen, bracketed paste, raw-mode
// input, a prompt, and a reply per submitted input. Plain Node, no build step, no dependencies.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import process from 'node:process';

const ESC = '\x1b';
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;

function parseOptions(argv, env) {
  const opts = {
    thinkingMs: Number(env.FAKE_AGENT_THINKING_MS ?? 0),
    flood: Number(env.FAKE_AGENT_FLOOD ?? 0),
    bracketedPaste: env.FAKE_AGENT_NO_BRACKETED_PASTE ? false : true,
    exitAfter: Number(env.FAKE_AGENT_EXIT_AFTER ?? 0),
    title: env.FAKE_AGENT_TITLE ?? 'fake-agent',
    altScreen: env.FAKE_AGENT_NO_ALT_SCREEN ? false : true,
    startDelayMs: Number(env.FAKE_AGENT_START_DELAY_MS ?? 0),
    settings: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--thinking-ms') opts.thinkingMs = Number(next());
    else if (a === '--flood') opts.flood = Number(next());
    else if (a === '--no-bracketed-paste') opts.bracketedPaste = false;
    else if (a === '--exit-after') opts.exitAfter = Number(next());
    else if (a === '--title') opts.title = String(next());
    else if (a === '--no-alt-screen') opts.altScreen = false;
    else if (a === '--start-delay-ms') opts.startDelayMs = Number(next());
    else if (a === '--settings') opts.settings.push(String(next()));
    else if (a.startsWith('--settings=')) opts.settings.push(a.slice('--settings='.length));
    else if (a === '--version') {
      // Claude Code's format, at the first version with the hooks the daemon injects.
      process.stdout.write(`${env.FAKE_AGENT_VERSION ?? '2.1.141'} (Claude Code)\n`);
      process.exit(0);
    } else if (a === '--help') {
      process.stdout.write('usage: fake-agent [--thinking-ms N] [--flood BYTES] [--no-bracketed-paste] [--exit-after N] [--title T] [--no-alt-screen] [--start-delay-ms N]\n');
      process.exit(0);
    } else {
      process.stderr.write(`fake-agent: unknown option ${a}\n`);
      process.exit(2);
    }
  }
  return opts;
}

const opts = parseOptions(process.argv.slice(2), process.env);
const out = (s) => process.stdout.write(s);

// Claude-style hooks: the last inline `--settings '<json>'` with `hooks.<Event>[].hooks[]` command
// entries. Like Claude Code, each command runs through a shell with the JSON payload on stdin,
// one after another, and the agent waits for it (bounded by the entry's timeout).
function hookCommands(settings) {
  const last = settings.at(-1);
  if (!last) return {};
  let parsed;
  try {
    parsed = JSON.parse(last);
  } catch {
    return {};
  }
  const hooks = parsed && typeof parsed === 'object' ? parsed.hooks : undefined;
  if (!hooks || typeof hooks !== 'object') return {};
  const byEvent = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    byEvent[event] = groups.flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : [])).filter((h) => h?.type === 'command' && typeof h.command === 'string');
  }
  return byEvent;
}

const HOOKS = hookCommands(opts.settings);
const SESSION_ID = randomUUID();
let toolSeq = 0;

function runHook(hook, payload) {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', hook.command], { stdio: ['pipe', 'ignore', 'ignore'], env: process.env, cwd: process.cwd() });
    const timer = setTimeout(() => child.kill('SIGKILL'), Number(hook.timeout ?? 60) * 1000);
    child.on('error', () => resolve());
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

async function fireHook(event, fields = {}) {
  const hooks = HOOKS[event] ?? [];
  const payload = { session_id: SESSION_ID, transcript_path: `/tmp/fake-agent-${SESSION_ID}.jsonl`, cwd: process.cwd(), hook_event_name: event, ...fields };
  for (const hook of hooks) await runHook(hook, payload);
}
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

function restoreAndExit(code) {
  if (opts.bracketedPaste) out(`${ESC}[?2004l`);
  if (opts.altScreen) out(`${ESC}[?1049l`);
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  process.stdout.write('', () => process.exit(code));
}

function submit(text) {
  busy = busy.then(async () => {
    if (opts.thinkingMs > 0) {
      out('\r\n(thinking)');
      await new Promise((r) => setTimeout(r, opts.thinkingMs));
    }
    await fireHook('UserPromptSubmit', { prompt: text, permission_mode: 'default' });
    if (HOOKS.PreToolUse || HOOKS.PostToolUse) {
      const tool = { tool_name: 'Bash', tool_use_id: `toolu_fake_${++toolSeq}`, tool_input: { command: `echo ${JSON.stringify(text)}` } };
      await fireHook('PreToolUse', tool);
      await fireHook('PostToolUse', { ...tool, tool_response: { stdout: text, stderr: '', interrupted: false } });
    }
    out(`\r\n[fake-agent] received: ${text.replace(/\r?\n/g, '\\n')}\r\n`);
    await fireHook('Stop', { stop_hook_active: false });
    received++;
    if (opts.exitAfter > 0 && received >= opts.exitAfter) return restoreAndExit(0);
    out(PROMPT);
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
      restoreAndExit(130);
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
  process.stdin.on('end', () => restoreAndExit(0));
  process.on('SIGTERM', () => restoreAndExit(143));
  if (opts.altScreen) out(`${ESC}[?1049h${ESC}[H${ESC}[2J`);
  out(`${ESC}]0;${opts.title}\x07`);
  if (opts.bracketedPaste) out(`${ESC}[?2004h`);
  busy = busy.then(() => fireHook('SessionStart', { source: 'startup' }));
  await busy;
  out(`${opts.title} ready\r\n`);
  if (opts.flood > 0) {
    await flood(opts.flood);
    out('\r\n[fake-agent] flood done\r\n');
  }
  out(PROMPT);
}

main();
