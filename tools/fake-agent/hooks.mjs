// The fake agent's lifecycle hooks, as Claude Code and Codex run them: each configured command
// runs through `/bin/sh -c` with the JSON payload on stdin, one after another, and the agent
// waits for it (bounded by the hook's timeout). Payloads carry the fields the real agents send.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';

/**
 * Claude Code: the last `--settings` wins, inline JSON or a JSON file (relative to the cwd), as
 * Claude Code takes either; `hooks.<Event>[].hooks[]` commands.
 */
export function claudeHooks(settings) {
  const last = settings.at(-1);
  if (!last) return {};
  let parsed;
  try {
    parsed = JSON.parse(last.trim().startsWith('{') ? last : readFileSync(resolve(last), 'utf8'));
  } catch {
    return {};
  }
  const hooks = parsed && typeof parsed === 'object' ? parsed.hooks : undefined;
  if (!hooks || typeof hooks !== 'object') return {};
  const byEvent = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    byEvent[event] = groups.flatMap((g) =>
      (Array.isArray(g?.hooks) ? g.hooks : [])
        .filter((h) => (h?.type === 'command' && typeof h.command === 'string') || (h?.type === 'http' && typeof h.url === 'string'))
        .map((h) =>
          h.type === 'http'
            ? { url: h.url, headers: h.headers, allowedEnvVars: h.allowedEnvVars, timeout: h.timeout, matcher: g.matcher, trusted: true }
            : { command: h.command, timeout: h.timeout, matcher: g.matcher, trusted: true },
        ),
    );
  }
  return byEvent;
}

/** A matcher is a regex over the event's subject (tool name, notification type, source); empty or `*` matches all. */
function matches(matcher, subject) {
  if (typeof matcher !== 'string' || matcher === '' || matcher === '*' || subject === undefined) return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(subject);
  } catch {
    return matcher === subject;
  }
}

function runCommand(hook, payload) {
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

/** `$VAR` / `${VAR}` in a header value, filled only from the variables the hook allows (else empty). */
function interpolate(value, allowed) {
  return String(value).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a, b) => {
    const name = a ?? b;
    return allowed.includes(name) ? (process.env[name] ?? '') : '';
  });
}

/** Claude Code's http hook: POST the payload as JSON; any answer, error or time-out lets the agent go on. */
async function runHttp(hook, payload) {
  const allowed = Array.isArray(hook.allowedEnvVars) ? hook.allowedEnvVars : [];
  const headers = { 'content-type': 'application/json' };
  for (const [k, v] of Object.entries(hook.headers ?? {})) headers[k] = interpolate(v, allowed);
  try {
    const res = await fetch(hook.url, { method: 'POST', headers, body: JSON.stringify(payload), signal: AbortSignal.timeout(Number(hook.timeout ?? 60) * 1000) });
    await res.text();
  } catch {
    /* non-blocking, as in Claude Code */
  }
}

const cwdSlug = (cwd) => cwd.replace(/[^A-Za-z0-9]/g, '-');

/**
 * One agent session's hooks. `personality` is 'claude' or 'codex': it decides the payloads'
 * identities (Claude's `prompt_id` / `toolu_…` ids; Codex's `turn_id` / `call_…` ids and
 * `model`) and where the transcript would live.
 */
export class SessionHooks {
  constructor(personality, byEvent) {
    this.personality = personality;
    this.byEvent = byEvent;
    this.sessionId = randomUUID();
    const now = new Date();
    const day = now.toISOString().slice(0, 10).replace(/-/g, '/');
    this.transcriptPath =
      personality === 'codex'
        ? `${homedir()}/.codex/sessions/${day}/rollout-${now.toISOString().slice(0, 19).replace(/:/g, '-')}-${this.sessionId}.jsonl`
        : `${homedir()}/.claude/projects/${cwdSlug(process.cwd())}/${this.sessionId}.jsonl`;
    this.turnId = null;
    this.fired = [];
  }

  has(event) {
    return (this.byEvent[event] ?? []).some((h) => h.trusted);
  }

  /** Hooks of `event` that would run (trusted, matcher matching `subject`). */
  handlers(event, subject) {
    return (this.byEvent[event] ?? []).filter((h) => h.trusted && matches(h.matcher, subject));
  }

  /** A new turn: Codex's `turn_id`, Claude's `prompt_id`. */
  newTurn() {
    this.turnId = randomUUID();
    return this.turnId;
  }

  newToolUseId() {
    return this.personality === 'codex' ? `call_${randomBytes(12).toString('base64url')}` : `toolu_${randomBytes(12).toString('hex')}`;
  }

  /** The fields of every payload, then the turn identity for turn-scoped events. */
  payload(event, fields, { inTurn }) {
    const base = { session_id: this.sessionId, transcript_path: this.transcriptPath, cwd: process.cwd(), hook_event_name: event };
    if (this.personality === 'codex') {
      Object.assign(base, { model: 'gpt-5-codex' });
      if (inTurn && this.turnId) base.turn_id = this.turnId;
    } else {
      Object.assign(base, { permission_mode: 'default' });
      if (inTurn && this.turnId) base.prompt_id = this.turnId;
    }
    return { ...base, ...fields };
  }

  /** Fire `event` and wait for its hooks. `subject` is what a matcher tests. */
  async fire(event, fields = {}, { subject, inTurn = true } = {}) {
    const hooks = this.handlers(event, subject);
    if (hooks.length === 0) return;
    const payload = this.payload(event, fields, { inTurn });
    this.fired.push(event);
    for (const hook of hooks) await (hook.url ? runHttp(hook, payload) : runCommand(hook, payload));
  }
}
