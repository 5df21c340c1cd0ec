import { mkdirSync } from 'node:fs';
import { ManagedLaunchError, type ManagedStartOptions, type RuntimeAdapter } from '../runtime-adapter.js';
import { AcpSession } from './acp-session.js';
import { headlessAcpLaunch, planHeadlessAcpLaunch, type HeadlessAcpRuntime } from './headless-acp-launch.js';

/** The managed runtime of a `runtime_mode: "acp"` actor: one pure headless ACP agent and session per generation. */
export function headlessAcpAdapter(runtime: HeadlessAcpRuntime): RuntimeAdapter {
  return {
    runtime,
    plan(argv) {
      planHeadlessAcpLaunch(runtime, argv);
    },
    start(options: ManagedStartOptions) {
      const plan = planHeadlessAcpLaunch(runtime, options.argv);
      const ccccHome = options.env.CCCC_HOME;
      if (!ccccHome) throw new ManagedLaunchError('start_failed', `${runtime} ACP needs CCCC_HOME in its environment`);
      const { launch, sessionMcp } = headlessAcpLaunch(plan, { mcpServers: options.mcpServers ?? [], ccccHome });
      // Antigravity's provider home is CCCC's own (owner-only), created before the agent runs.
      if (launch.agentEnv.HOME) mkdirSync(launch.agentEnv.HOME, { recursive: true, mode: 0o700 });
      return AcpSession.start(launch, sessionMcp ? options : { ...options, mcpServers: [] });
    },
  };
}
