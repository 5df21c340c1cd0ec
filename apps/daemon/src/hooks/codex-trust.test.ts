import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeAgentScriptPath } from '@cccc/pty-runtime/testing';
import { CODEX_HOOK_EVENTS, codexHookArgs, codexProbeArgv } from '../runtime/hook-contributor.js';

// The daemon's codex arguments read back the way Codex reads them (the fake agent's Codex
// config reader): every injected hook must load and be trusted, or Codex would not run it.

type Hook = { command: string; timeout?: number; trusted: boolean };
type CodexConfig = {
  applyOverrides(overrides: string[]): Record<string, unknown>;
  codexHooks(config: Record<string, unknown>): Record<string, Hook[]>;
};
const codexConfig = async (): Promise<CodexConfig> => (await import(join(fakeAgentScriptPath(), '..', 'codex-config.mjs'))) as CodexConfig;
const overridesOf = (args: string[]) => args.filter((_, i) => args[i - 1] === '-c');
const COMMAND = `'/usr/bin/node' '/opt/it'\\''s "cccc"/bin/cccc.js' hook codex-state`;

describe('codex hook arguments as Codex reads them', () => {
  it('every injected event loads with exactly our command, trusted', async () => {
    const { applyOverrides, codexHooks } = await codexConfig();
    const hooks = codexHooks(applyOverrides(overridesOf(codexHookArgs(COMMAND))));
    expect(Object.keys(hooks).sort()).toEqual([...CODEX_HOOK_EVENTS].sort());
    for (const event of CODEX_HOOK_EVENTS) expect(hooks[event]).toEqual([{ command: COMMAND, timeout: 3, matcher: undefined, trusted: true }]);
  });

  it('a hook whose command differs from the trusted one is not trusted', async () => {
    const { applyOverrides, codexHooks } = await codexConfig();
    const args = overridesOf(codexHookArgs(COMMAND));
    const tampered = args.map((a) => (a.startsWith('hooks.Stop=') ? a.replace('codex-state', 'evil') : a));
    const hooks = codexHooks(applyOverrides(tampered));
    expect(hooks.Stop![0]!.trusted).toBe(false);
    expect(hooks.SessionStart![0]!.trusted).toBe(true);
  });

  it('reads other overrides as Codex does: TOML, else the raw text; quoted keys keep their dots', async () => {
    const { applyOverrides } = await codexConfig();
    expect(applyOverrides(['shell_environment_policy.inherit=all', 'mcp_servers.cccc.args=["a", "mcp"]', 'x."a.b".c=true'])).toEqual({
      shell_environment_policy: { inherit: 'all' },
      mcp_servers: { cccc: { args: ['a', 'mcp'] } },
      x: { 'a.b': { c: true } },
    });
  });

  it('the pre-probe keeps only the configuration flags of the launch, then the hook args and `mcp list`', () => {
    const argv = ['codex', '-c', 'a=1', '--search', '-p', 'work', '--config=b=2', '--dangerously-bypass-approvals-and-sandbox', '--', '-c', 'nope'];
    expect(codexProbeArgv(argv, COMMAND)).toEqual(['codex', '-c', 'a=1', '-p', 'work', '--config=b=2', ...codexHookArgs(COMMAND), 'mcp', 'list']);
  });
});
