import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIME_CATALOG, detectInstalled, getRuntime } from './catalog.js';
import { LaunchError, assertLaunchCwd, composeLaunch, type LaunchContributor } from './launch.js';

const base = { cwd: '/repo', daemonEnv: { PATH: '/bin', COLUMNS: '80', SHARED: 'daemon' }, home: '/h', groupId: 'g_1', actorId: 'peer1' };

describe('runtime catalog', () => {
  it('has every runtime of REFERENCE_NOTES §4 plus custom', () => {
    expect(RUNTIME_CATALOG.map((r) => r.id)).toEqual([
      'claude', 'codex', 'cline', 'copilot', 'cursor', 'devin', 'kiro', 'droid', 'grok', 'hermes', 'kimi', 'opencode',
      'antigravity', 'amp', 'auggie', 'kilo', 'deepseek', 'web_model', 'custom',
    ]);
    expect(getRuntime('claude').command.join(' ')).toBe('claude --dangerously-skip-permissions');
    expect(getRuntime('codex').command.join(' ')).toBe('codex -c shell_environment_policy.inherit=all --dangerously-bypass-approvals-and-sandbox --search');
    expect(getRuntime('kiro').command).toEqual(['kiro-cli', 'chat', '--trust-all-tools']);
    expect(getRuntime('antigravity').command[0]).toBe('agy');
    expect(getRuntime('copilot').submitRepeat).toEqual({ count: 2, gapMs: 200 });
    expect(getRuntime('deepseek').transport).toBe('headless_only');
  });

  it('an unknown runtime uses its own name', () => {
    expect(getRuntime('mytool')).toMatchObject({ command: ['mytool'], transport: 'pty', submit: 'enter' });
  });

  it('detectInstalled looks on PATH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-'));
    try {
      writeFileSync(join(dir, 'claude'), '#!/bin/sh\n');
      chmodSync(join(dir, 'claude'), 0o755);
      writeFileSync(join(dir, 'codex'), 'not executable');
      expect(detectInstalled('claude', dir)).toMatchObject({ installed: true, path: join(dir, 'claude') });
      expect(detectInstalled('codex', dir).installed).toBe(false);
      expect(detectInstalled('custom', dir)).toMatchObject({ installed: false, binary: undefined });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('composeLaunch', () => {
  it('layers env: daemon → actor → private → TERM → identity', () => {
    const cmd = composeLaunch({
      ...base,
      runtime: 'claude',
      actorEnv: { SHARED: 'actor', CCCC_ACTOR_ID: 'spoof', TERM: 'dumb' },
      privateEnv: { SHARED: 'secret', API_KEY: 'k' },
    });
    expect(cmd.argv).toEqual(['claude', '--dangerously-skip-permissions']);
    expect(cmd.cwd).toBe('/repo');
    expect(cmd.env).toMatchObject({ PATH: '/bin', SHARED: 'secret', API_KEY: 'k', TERM: 'xterm-256color', CCCC_HOME: '/h', CCCC_GROUP_ID: 'g_1', CCCC_ACTOR_ID: 'peer1' });
    expect(cmd.env.COLUMNS).toBeUndefined();
  });

  it('custom requires a command; a command overrides the default', () => {
    expect(() => composeLaunch({ ...base, runtime: 'custom' })).toThrowError(LaunchError);
    expect(composeLaunch({ ...base, runtime: 'custom', command: ['my-agent', '-x'] }).argv).toEqual(['my-agent', '-x']);
    expect(composeLaunch({ ...base, runtime: 'codex', command: ['codex'] }).argv).toEqual(['codex']);
    expect(composeLaunch({ ...base, runtime: 'newtool' }).argv).toEqual(['newtool']);
  });

  it('runs contributors in order and keeps the identity', () => {
    const hooks: LaunchContributor = { name: 'hooks', contribute: (c) => ({ ...c, argv: [...c.argv, '--settings', 'hooks.json'] }) };
    const mcp: LaunchContributor = {
      name: 'mcp',
      contribute: (c, b) => ({ ...c, argv: [...c.argv, '-c', `mcp=${b.actorId}`], env: { ...c.env, MCP: '1', CCCC_GROUP_ID: 'other' } }),
    };
    const cmd = composeLaunch({ ...base, runtime: 'codex', command: ['codex'] }, [hooks, mcp]);
    expect(cmd.argv).toEqual(['codex', '--settings', 'hooks.json', '-c', 'mcp=peer1']);
    expect(cmd.env).toMatchObject({ MCP: '1', CCCC_GROUP_ID: 'g_1' });
  });

  it('assertLaunchCwd gives clear errors', () => {
    expect(() => assertLaunchCwd('')).toThrowError(expect.objectContaining({ code: 'missing_project_root' }));
    expect(() => assertLaunchCwd('/definitely/not/here')).toThrowError(expect.objectContaining({ code: 'scope_missing' }));
    expect(() => assertLaunchCwd(tmpdir())).not.toThrow();
  });
});
