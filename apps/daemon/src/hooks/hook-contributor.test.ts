import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LaunchBase, LaunchCommand } from '@cccc/pty-runtime';
import {
  CLAUDE_HOOK_EVENTS,
  CLAUDE_NOTIFICATION_MATCHER,
  CODEX_HOOK_EVENTS,
  CLAUDE_HTTP_HOOK_EVENTS,
  claudeVersionSupportsHooks,
  claudeVersionSupportsHttpHooks,
  codexTrustHash,
  hookLaunchContributor,
} from '../runtime/hook-contributor.js';

const launcher = { node: '/usr/bin/node', cliEntry: "/opt/it's/cccc.js" };
const QUOTED = `'/usr/bin/node' '/opt/it'\\''s/cccc.js' hook`;
const base = {} as LaunchBase;
const cmd = (argv: string[]): LaunchCommand => ({ argv, env: { CCCC_ACTOR_ID: 'a' }, cwd: '/proj' });
const contributor = (extra: Partial<Parameters<typeof hookLaunchContributor>[0]> = {}) =>
  hookLaunchContributor({ launcher, launchToken: 'tok-1', claudeHooksSupported: true, codexHooksSupported: true, ...extra });
const settingsOf = (argv: readonly string[]) => JSON.parse(argv[argv.indexOf('--settings') + 1]!);

describe('hook launch contributor: claude', () => {
  it('adds one inline --settings with a command hook per event and the notification matcher', () => {
    const out = contributor().contribute(cmd(['/usr/local/bin/claude', '--dangerously-skip-permissions']), base);
    expect(out.env).toEqual({ CCCC_ACTOR_ID: 'a', CCCC_HOOK_LAUNCH_TOKEN: 'tok-1' });
    expect(out.argv.filter((a) => a === '--settings')).toHaveLength(1);
    const hooks = settingsOf(out.argv).hooks;
    expect(Object.keys(hooks)).toEqual([...CLAUDE_HOOK_EVENTS]);
    expect(hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: `${QUOTED} claude-state`, timeout: 3 }] }]);
    expect(hooks.Notification[0].matcher).toBe(CLAUDE_NOTIFICATION_MATCHER);
    expect(out.argv.slice(0, 2)).toEqual(['/usr/local/bin/claude', '--dangerously-skip-permissions']);
  });

  it('merges the last effective user --settings (inline or file) and keeps their hooks', () => {
    const user = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }] } };
    const inline = contributor().contribute(cmd(['claude', '--settings', '{"model":"x"}', '--settings=' + JSON.stringify(user)]), base);
    const s = settingsOf(inline.argv);
    expect(s.model).toBe('opus');
    expect(s.hooks.Stop.map((g: { hooks: { command: string }[] }) => g.hooks[0]!.command)).toEqual(['mine', `${QUOTED} claude-state`]);
    const read: string[] = [];
    const fromFile = contributor({ readFile: (p) => (read.push(p), JSON.stringify(user)) }).contribute(cmd(['claude', '--settings', 'cfg/s.json']), base);
    expect(read).toEqual(['/proj/cfg/s.json']);
    expect(settingsOf(fromFile.argv).model).toBe('opus');
  });

  it('launches unhooked rather than drop settings it cannot read, and for an old claude', () => {
    const bad = cmd(['claude', '--settings', 'missing.json']);
    expect(contributor({ readFile: () => { throw new Error('ENOENT'); } }).contribute(bad, base)).toBe(bad);
    const weird = cmd(['claude', '--settings', '{"hooks":[]}']);
    expect(contributor().contribute(weird, base)).toBe(weird);
    const plain = cmd(['claude']);
    expect(contributor({ claudeHooksSupported: false }).contribute(plain, base)).toBe(plain);
    expect(claudeVersionSupportsHooks('2.1.141 (Claude Code)')).toBe(true);
    expect(claudeVersionSupportsHooks('2.2.0')).toBe(true);
    expect(claudeVersionSupportsHooks('2.1.140')).toBe(false);
    expect(claudeVersionSupportsHooks('1.9.999')).toBe(false);
    expect(claudeVersionSupportsHooks('garbage')).toBe(false);
  });
});

describe('hook launch contributor: claude http hooks (issue 35)', () => {
  const url = 'http://127.0.0.1:4567/hooks/claude-state';

  it('with a hook URL: http hooks for the events that fire over http, command hooks for the rest', () => {
    const out = contributor({ claudeHttpHookUrl: url }).contribute(cmd(['claude']), base);
    const hooks = settingsOf(out.argv).hooks;
    expect(Object.keys(hooks)).toEqual([...CLAUDE_HOOK_EVENTS]);
    for (const event of CLAUDE_HOOK_EVENTS) {
      const hook = hooks[event].at(-1).hooks[0];
      expect({ event, type: hook.type }).toEqual({ event, type: CLAUDE_HTTP_HOOK_EVENTS.has(event) ? 'http' : 'command' });
    }
    expect(hooks.SessionStart[0].hooks[0].type).toBe('command');
    expect(hooks.PreToolUse).toEqual([
      {
        hooks: [
          {
            type: 'http',
            url,
            headers: { 'x-cccc-group-id': '$CCCC_GROUP_ID', 'x-cccc-actor-id': '$CCCC_ACTOR_ID', 'x-cccc-launch-token': '$CCCC_HOOK_LAUNCH_TOKEN' },
            allowedEnvVars: ['CCCC_GROUP_ID', 'CCCC_ACTOR_ID', 'CCCC_HOOK_LAUNCH_TOKEN'],
            timeout: 3,
          },
        ],
      },
    ]);
    // The token reaches the agent only through its environment: the command line never holds it.
    expect(out.env).toMatchObject({ CCCC_HOOK_LAUNCH_TOKEN: 'tok-1' });
    expect(out.argv.join(' ')).not.toContain('tok-1');
  });

  it('codex keeps command hooks whatever the URL; the version gate is 2.1.63', () => {
    const codex = contributor({ claudeHttpHookUrl: url }).contribute(cmd(['codex']), base);
    expect(codex.argv.join(' ')).not.toContain('http');
    expect(claudeVersionSupportsHttpHooks('2.1.63 (Claude Code)')).toBe(true);
    expect(claudeVersionSupportsHttpHooks('2.1.328 (Claude Code)')).toBe(true);
    expect(claudeVersionSupportsHttpHooks('2.1.62 (Claude Code)')).toBe(false);
    expect(claudeVersionSupportsHttpHooks('garbage')).toBe(false);
  });
});

describe('hook launch contributor: codex and others', () => {
  it('adds -c hooks.<E> per event and the trust entries after the executable', () => {
    const out = contributor().contribute(cmd(['codex', '--search']), base);
    expect(out.argv[0]).toBe('codex');
    expect(out.argv.at(-1)).toBe('--search');
    const overrides = out.argv.filter((_, i) => out.argv[i - 1] === '-c');
    expect(overrides).toHaveLength(CODEX_HOOK_EVENTS.length + 1);
    expect(overrides[0]).toBe(`hooks.SessionStart=[{hooks=[{type="command",command=${JSON.stringify(`${QUOTED} codex-state`)},timeout=3}]}]`);
    expect(overrides.at(-1)).toContain('"/<session-flags>/config.toml:pre_tool_use:0:0"={trusted_hash="sha256:');
    expect(out.env.CCCC_HOOK_LAUNCH_TOKEN).toBe('tok-1');
  });

  it('hashes the compact sorted-key JSON of the hook group', () => {
    const body = '{"event_name":"stop","hooks":[{"async":false,"command":"c","timeout":3,"type":"command"}]}';
    expect(codexTrustHash('Stop', 'c')).toBe(`sha256:${createHash('sha256').update(body).digest('hex')}`);
  });

  it('leaves codex unhooked after a failed pre-probe, and other runtimes untouched', () => {
    const codex = cmd(['codex']);
    expect(contributor({ codexHooksSupported: false }).contribute(codex, base)).toBe(codex);
    const other = cmd(['/usr/bin/claude-wrapper']);
    expect(contributor().contribute(other, base)).toBe(other);
  });
});
