import type { OpRouter } from '@cccc/ipc-protocol';
import { runFinite } from '../runtime/hermes/finite-command.js';
import { hermesExecutable, readHermesStatus, type HermesContext } from '../runtime/hermes/hermes-facts.js';
import { HERMES_MCP_SERVER } from '../runtime/hermes/hermes-status.js';

export type HermesOpsDeps = HermesContext;

const MCP_TEST_TIMEOUT_MS = 60_000;
const PROBE_GROUP_ID = 'g_probe';
const PROBE_ACTOR_ID = 'hermes-probe';
const missing = { code: 'hermes_cli_missing', message: 'the hermes CLI is not on the daemon PATH' };

/**
 * §8.4 runtime_hermes_*: status reads the selected user Hermes profile; mcp_test runs Hermes'
 * own `hermes mcp test cccc` with probe actor env as a finite command. prepare answers from the
 * status: with no Hermes CLI (none could be installed where this was built: the npm bridge
 * downloads its Python runtime at install time) it is `hermes_cli_missing`; an already ready
 * profile is ok with nothing run; anything else is `hermes_prepare_unverified`, because the
 * `hermes mcp add` discovery flow has not been verified against a real Hermes.
 */
export function registerHermesOps(router: OpRouter, deps: HermesOpsDeps): void {
  router.register('runtime_hermes_status', () => readHermesStatus(deps));

  router.register('runtime_hermes_prepare', async (args) => {
    const status = await readHermesStatus(deps);
    if (!status.hermes_cli.available) return { ok: false, status, error: missing };
    const force = args.force_mcp === true || args.force === true;
    if (status.mcp.status === 'ready' && !force) return { ok: true, commands_run: [], status };
    return {
      ok: false,
      status,
      error: {
        code: 'hermes_prepare_unverified',
        message: `this daemon has not verified Hermes' MCP setup flow; add the ${HERMES_MCP_SERVER} server with \`hermes mcp add\` and the actor placeholders, then check with runtime_hermes_status`,
      },
    };
  });

  router.register('runtime_hermes_mcp_test', async (args) => {
    const path = hermesExecutable(deps);
    const argv = [path ?? 'hermes', 'mcp', 'test', HERMES_MCP_SERVER];
    if (!path) return { ok: false, argv, error: missing };
    const env = {
      ...deps.env,
      CCCC_HOME: deps.home,
      CCCC_GROUP_ID: args.group_id || PROBE_GROUP_ID,
      CCCC_ACTOR_ID: args.actor_id || PROBE_ACTOR_ID,
    };
    const out = await runFinite(argv, { ...(args.cwd ? { cwd: args.cwd } : {}), env, timeoutMs: MCP_TEST_TIMEOUT_MS });
    if (!out.ok) return { ok: false, argv, error: { code: 'hermes_mcp_test_failed', message: out.message } };
    return { ok: out.returncode === 0, argv, result: { returncode: out.returncode, stdout: out.stdout, stderr: out.stderr } };
  });
}
