import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PtySession, renderBytes, spawnNodePty } from '@cccc/pty-runtime';

/** A real CLI in a node-pty PTY (the daemon's own PtySession), with its output kept for screens. */
export interface PtyAgent extends AsyncDisposable {
  readonly session: PtySession;
  /** The rendered screen, one plain string per row. */
  screen(): Promise<string[]>;
  /** Polls the rendered screen until `match` holds; rejects with the screen after `timeoutMs`. */
  waitForScreen(match: (text: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /**
   * Types `text`, waits until the screen shows it (a TUI that is slow under load would otherwise
   * take a quick Enter as part of the typed burst, as Codex's paste detection does), then Enter.
   */
  submit(text: string): Promise<void>;
  kill(): Promise<void>;
}

export function startPtyAgent(options: { argv: string[]; cwd: string; env: Record<string, string>; cols?: number; rows?: number }): PtyAgent {
  const cols = options.cols ?? 120;
  const rows = options.rows ?? 40;
  const session = spawnNodePty({ argv: options.argv, cwd: options.cwd, env: options.env, cols, rows });
  const chunks: Buffer[] = [];
  session.onData((chunk) => chunks.push(Buffer.from(chunk)));
  const exited = new Promise<void>((resolve) => session.onExit(() => resolve()));

  const screen = async () => {
    using rendered = await renderBytes(Buffer.concat(chunks), { cols, rows, scrollback: 500 });
    return rendered.plainLines();
  };
  const kill = async () => {
    if (!session.exited) session.kill('SIGKILL');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
    session[Symbol.dispose]();
  };
  return {
    session,
    screen,
    async waitForScreen(match, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = (await screen()).join('\n');
        if (match(text)) return text;
        if (session.exited) throw new Error(`the agent exited while waiting for ${what}; screen:\n${text}`);
        if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; screen:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    },
    async submit(text) {
      await session.write(text);
      await this.waitForScreen((screen) => screen.includes(text.slice(-20)), `the typed text "${text}"`, 15_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await session.write('\r');
    },
    kill,
    [Symbol.asyncDispose]: kill,
  };
}

/**
 * Claude Code `--settings` whose command hooks each save their stdin payload as one file in
 * `dir`; `readHookPayloads(dir)` reads them back in the order they fired.
 */
export function recordingHookSettings(dir: string, events: readonly string[], options: { holdSeconds?: number } = {}): string {
  mkdirSync(dir, { recursive: true });
  // holdSeconds: the hook keeps running after saving its payload, like a slow hook (the daemon's).
  const command = `cat > "${dir}/$(date +%s%N)-$$.json"${options.holdSeconds ? `; sleep ${options.holdSeconds}` : ''}`;
  return JSON.stringify({ hooks: Object.fromEntries(events.map((event) => [event, [{ hooks: [{ type: 'command', command }] }]])) });
}

/**
 * Codex `-c hooks.<Event>=…` arguments whose command hooks each save their stdin payload as one
 * file in `dir` (read back with `readHookPayloads`), with `--dangerously-bypass-hook-trust` so
 * codex runs them without persisted trust entries.
 */
export function recordingCodexHookArgs(dir: string, events: readonly string[]): string[] {
  mkdirSync(dir, { recursive: true });
  const command = JSON.stringify(`cat > "${dir}/$(date +%s%N)-$$.json"`); // a JSON string is a TOML basic string
  return ['--dangerously-bypass-hook-trust', ...events.flatMap((event) => ['-c', `hooks.${event}=[{hooks=[{type="command",command=${command},timeout=3}]}]`])];
}

export interface HookPayload {
  hook_event_name: string;
  session_id?: string;
  [key: string]: unknown;
}

export function readHookPayloads(dir: string): HookPayload[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort((a, b) => (BigInt(a.split('-')[0]!) < BigInt(b.split('-')[0]!) ? -1 : 1))
    .flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(join(dir, name), 'utf8')) as HookPayload];
      } catch {
        return []; // still being written
      }
    });
}

export async function waitForHook(dir: string, event: string, timeoutMs = 30_000): Promise<HookPayload> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readHookPayloads(dir).find((payload) => payload.hook_event_name === event);
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(`no ${event} hook within ${timeoutMs} ms; fired: ${readHookPayloads(dir).map((p) => p.hook_event_name).join(', ') || 'none'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
