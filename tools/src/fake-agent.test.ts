import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The fake agent as a real process: it must take every flag the daemon (or a user's command)
// hands the CLI it plays, and still read the flags that configure it.
const SCRIPT = fileURLToPath(new URL('../fake-agent/fake-agent.mjs', import.meta.url));

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the fake; once it shows its prompt, close its stdin (end of input: it exits 0). */
function runFake(args: readonly string[], cwd?: string): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('fake-agent> ')) child.stdin.end();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const MCP = JSON.stringify({ mcpServers: { cccc: { type: 'stdio', command: process.execPath, args: ['/x/cli.js', 'mcp'] } } });

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** Settings whose SessionStart hook creates `marker`: proof that the settings were read. */
function markerSettings(marker: string): string {
  return JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch '${marker}'` }] }] } });
}

describe('fake agent: flags of the CLI it plays', () => {
  it('as claude, accepts every flag of a daemon launch and of common hand-written commands', async () => {
    dir = mkdtempSync(join(tmpdir(), 'fake-agent-flags-'));
    const marker = join(dir, 'session-started');
    // The daemon's launch: catalog default + MCP wiring + hook settings; then what users add.
    const args = [
      '--mcp-config', MCP, '--dangerously-skip-permissions', '--settings', markerSettings(marker),
      '--strict-mcp-config', '--permission-mode', 'bypassPermissions', '--append-system-prompt', 'be brief',
      '--model', 'opus', '--resume', '--session-id', '0b7c2f3e-1111-2222-3333-444455556666', '--print', '-p',
      '--model=sonnet', '-r', 'abc', '--continue', '--verbose', '--add-dir', '/tmp', '--allowedTools', 'Bash',
    ];
    const run = await runFake(args, dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('fake-agent> ');
    expect(existsSync(marker)).toBe(true);
  });

  it('as claude, reads --settings from a file (relative to its cwd), as Claude Code does', async () => {
    dir = mkdtempSync(join(tmpdir(), 'fake-agent-flags-'));
    const marker = join(dir, 'from-file');
    writeFileSync(join(dir, 'settings.json'), markerSettings(marker));
    const run = await runFake(['--settings', 'settings.json', '--mcp-config', join(dir, 'mcp.json')], dir);
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('as codex, accepts repeated -c overrides and the approval, sandbox and model flags', async () => {
    dir = mkdtempSync(join(tmpdir(), 'fake-agent-flags-'));
    const args = [
      '--as', 'codex',
      '-c', 'mcp_servers.cccc.command="node"', '-c', 'mcp_servers.cccc.args=["/x/cli.js", "mcp"]',
      '-c', 'shell_environment_policy.inherit=all', '--config=model_reasoning_effort="high"',
      '--dangerously-bypass-approvals-and-sandbox', '--search', '--yolo', '-m', 'gpt-5-codex', '--model=o3',
      '-s', 'workspace-write', '-a', 'never', '--full-auto', '-p', 'work',
    ];
    const run = await runFake(args, dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('fake-agent> ');
    // The overrides were read, not skipped: `mcp list` shows the server they declare.
    const list = await runFake([...args.filter((a) => a !== '--search' && a !== '--yolo' && a !== '--full-auto'), 'mcp', 'list'], dir);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^cccc\s+node\s+\/x\/cli\.js mcp/m);
  });

  it('still refuses an option it does not know, and a value flag without its value (exit 2)', async () => {
    const unknown = await runFake(['--no-such-flag']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown option --no-such-flag');
    const missing = await runFake(['--mcp-config']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--mcp-config needs a value');
  });
});
