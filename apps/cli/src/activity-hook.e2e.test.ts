import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordActivity } from './commands/activity-recorder.js';
import { mergeActivityHooks } from './commands/activity-setup.js';
import { BIN } from './e2e-harness.js';

const run = promisify(execFile);
let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cccc-activity-'));
  dir = join(root, 'activity');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const env = () => ({ ...process.env, CCCC_ACTIVITY_DIR: dir, CCCC_ACTIVITY_SANDBOX: 'box', CLAUDE_CONFIG_DIR: join(root, 'claude') });
const payload = (hook_event_name: string, extra: object = {}) => JSON.stringify({ hook_event_name, session_id: 's1', cwd: '/w/proj', ...extra });
const latest = () => JSON.parse(readFileSync(join(dir, 'activity-latest.json'), 'utf8'));
const lines = () =>
  readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .flatMap((n) => readFileSync(join(dir, n), 'utf8').trim().split('\n'))
    .map((l) => JSON.parse(l));

/** Run the built hook as Claude Code does: payload on stdin; resolves with code and output. */
function hook(stdin: string | Buffer, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-activity'], { env: { ...env(), ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

describe('recorder IO shell (in process)', () => {
  const rec = (p: string, at = new Date()) => recordActivity(p, { env: env(), now: at });

  it('records states, seq per session, subagent ids and the seed formats', async () => {
    const t = Date.parse('2026-07-29T10:00:00Z');
    const steps: [string, object?][] = [
      ['SessionStart'],
      ['UserPromptSubmit', { prompt: 'PRIVATE' }],
      ['SubagentStart', { agent_id: 'sub1' }],
      ['SubagentStop', { agent_id: 'ghost' }],
      ['Notification', { notification_type: 'permission_prompt', message: 'PRIVATE' }],
      ['PostToolUse', { tool_name: 'Bash', tool_input: { command: 'PRIVATE' } }],
      ['Stop'],
      ['SessionEnd'],
    ];
    for (const [i, [name, extra]] of steps.entries()) await rec(payload(name, extra), new Date(t + i * 1000));
    expect(lines().map((l) => `${l.seq}:${l.state}:${l.subagents_active}`)).toEqual([
      '1:idle:0', '2:working:0', '3:working:1', '4:waiting:1', '5:working:1', '6:idle:1', '7:ended:0',
    ]);
    expect(lines()[0]).toMatchObject({ v: 1, sandbox: 'box', agent: 'claude', session_id: 's1', session_name: 'proj', event: 'SessionStart' });
    expect(latest()).toMatchObject({ v: 1, sessions: { s1: { state: 'ended', seq: 7, subagent_ids: [], last_event_ts: '2026-07-29T10:00:07.000Z' } } });
    expect(readdirSync(dir)).toContain('activity-2026-07-29.jsonl');
    expect(readFileSync(join(dir, 'activity-latest.json'), 'utf8') + JSON.stringify(lines())).not.toContain('PRIVATE');
  });

  it('bad input records nothing', async () => {
    expect(await rec('not json')).toBe('bad_input');
    expect(await rec(JSON.stringify({ hook_event_name: 'Stop' }))).toBe('bad_input');
    expect(await rec('[]')).toBe('bad_input');
    expect(await rec('{}')).toBe('bad_input');
    expect(existsSync(dir)).toBe(false);
  });

  it('prunes day files and sessions older than 14 days', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'activity-2026-07-01.jsonl'), '{}\n');
    writeFileSync(join(dir, 'activity-2026-07-20.jsonl'), '{}\n');
    await rec(payload('Stop', { session_id: 'old' }), new Date('2026-07-10T00:00:00Z'));
    await rec(payload('Stop'), new Date('2026-07-29T00:00:00Z'));
    expect(readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()).toEqual(['activity-2026-07-20.jsonl', 'activity-2026-07-29.jsonl']);
    expect(Object.keys(latest().sessions)).toEqual(['s1']);
  });

  it('never writes through a planted symlink (latest file, day file, lock, directory)', async () => {
    mkdirSync(dir, { recursive: true });
    const victim = join(root, 'victim');
    writeFileSync(victim, 'untouched');
    for (const name of ['activity-latest.json', `activity-${new Date().toISOString().slice(0, 10)}.jsonl`, '.activity.lock']) {
      symlinkSync(victim, join(dir, name));
      await expect(rec(payload('UserPromptSubmit'))).rejects.toThrow(/symlink/);
      expect(readFileSync(victim, 'utf8')).toBe('untouched');
      rmSync(join(dir, name));
    }
    rmSync(dir, { recursive: true });
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, dir);
    await expect(rec(payload('UserPromptSubmit'))).rejects.toThrow(/symlink/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('cccc hook claude-activity (built CLI)', () => {
  it('exits 0 with no output for good, bad, oversized and unwritable input', { timeout: 120_000 }, async () => {
    for (const input of [payload('UserPromptSubmit'), 'garbage', Buffer.alloc(1024 * 1024 + 10, 'x'), '']) {
      const r = await hook(input);
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    }
    expect(latest().sessions.s1.state).toBe('working');
    expect(readFileSync(join(dir, 'hook-errors.log'), 'utf8')).toMatch(/bad hook payload/);
    writeFileSync(join(root, 'file'), '');
    expect(await hook(payload('Stop'), { CCCC_ACTIVITY_DIR: join(root, 'file', 'sub') })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('defaults to ${CLAUDE_CONFIG_DIR}/activity', { timeout: 60_000 }, async () => {
    const r = await hook(payload('Stop'), { CCCC_ACTIVITY_DIR: '' });
    expect(r.code).toBe(0);
    expect(existsSync(join(root, 'claude', 'activity', 'activity-latest.json'))).toBe(true);
  });

  it('40 concurrent hook processes lose no update', { timeout: 300_000 }, async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => hook(payload(i % 2 ? 'UserPromptSubmit' : 'Stop', { session_id: `c${i}` }))),
    );
    expect(results.filter((r) => r.code !== 0 || r.stdout !== '' || r.stderr !== '')).toEqual([]);
    const errors = join(dir, 'hook-errors.log');
    expect(existsSync(errors) ? readFileSync(errors, 'utf8') : '').toBe('');
    expect(Object.keys(latest().sessions)).toHaveLength(40);
    expect(lines()).toHaveLength(40);
  });
});

describe('cccc activity and cccc activity setup', () => {
  it('lists live sessions with their state and for how long', { timeout: 60_000 }, async () => {
    await recordActivity(payload('UserPromptSubmit'), { env: env(), now: new Date(Date.now() - 90_000) });
    await recordActivity(payload('Stop', { session_id: 'gone' }), { env: env() });
    await recordActivity(payload('SessionEnd', { session_id: 'gone' }), { env: env() });
    const { stdout } = await run(process.execPath, [BIN, 'activity'], { env: env() });
    expect(stdout).toMatch(/^working for 1m3\ds\s+s1 proj/);
    expect(stdout).not.toContain('gone');
    const json = JSON.parse((await run(process.execPath, [BIN, 'activity', '--all', '--json'], { env: env() })).stdout);
    expect(json.map((r: { session_id: string; state: string }) => `${r.session_id}:${r.state}`).sort()).toEqual(['gone:ended', 's1:working']);
  });

  it('setup merges without clobbering, is idempotent, refuses what it cannot parse; --print only prints', { timeout: 90_000 }, async () => {
    const cfg = join(root, 'claude');
    mkdirSync(cfg, { recursive: true });
    const settingsPath = join(cfg, 'settings.json');
    const mine = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'my-stop-hook' }] }] } };
    writeFileSync(settingsPath, JSON.stringify(mine));
    const printed = await run(process.execPath, [BIN, 'activity', 'setup', '--print'], { env: env() });
    expect(JSON.parse(printed.stdout).hooks.Notification[0].matcher).toBe('permission_prompt|idle_prompt|elicitation_dialog');
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual(mine);

    await run(process.execPath, [BIN, 'activity', 'setup'], { env: env() });
    const once = readFileSync(settingsPath, 'utf8');
    const merged = JSON.parse(once);
    expect(merged.model).toBe('opus');
    expect(merged.hooks.Stop[0].hooks[0].command).toBe('my-stop-hook');
    const cmd: string = merged.hooks.Stop[1].hooks[0].command;
    expect(cmd).toContain(`'${process.execPath}' '${BIN}' hook claude-activity`);
    expect(Object.keys(merged.hooks)).toHaveLength(11);
    const again = await run(process.execPath, [BIN, 'activity', 'setup'], { env: env() });
    expect(again.stdout).toMatch(/already/);
    expect(readFileSync(settingsPath, 'utf8')).toBe(once);

    writeFileSync(settingsPath, '{ broken');
    await expect(run(process.execPath, [BIN, 'activity', 'setup'], { env: env() })).rejects.toMatchObject({ code: 1 });
    expect(readFileSync(settingsPath, 'utf8')).toBe('{ broken');
  });

  it('merge refuses shapes it does not understand', () => {
    expect(() => mergeActivityHooks([], 'x hook claude-activity')).toThrow(/object/);
    expect(() => mergeActivityHooks({ hooks: [] }, 'x hook claude-activity')).toThrow(/hooks/);
    expect(() => mergeActivityHooks({ hooks: { Stop: {} } }, 'x hook claude-activity')).toThrow(/hooks.Stop/);
    expect(mergeActivityHooks({}, 'x hook claude-activity')).not.toBeNull();
  });
});
