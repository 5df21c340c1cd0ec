import type { ManagedStartOptions, RuntimeAdapter } from '../runtime-adapter.js';
import { AcpSession } from './acp-session.js';
import { checkOpencodeVersion, opencodeAcpLaunch, planOpencodeLaunch } from './opencode-launch.js';

/** The managed runtime for `opencode`: one `opencode acp` agent and one session per actor generation. */
export const opencodeAcpAdapter: RuntimeAdapter = {
  runtime: 'opencode',
  plan(argv) {
    planOpencodeLaunch(argv);
  },
  start(options: ManagedStartOptions) {
    const plan = planOpencodeLaunch(options.argv);
    checkOpencodeVersion(plan.executable, options.env);
    return AcpSession.start(opencodeAcpLaunch(plan, options.cwd), options);
  },
};
