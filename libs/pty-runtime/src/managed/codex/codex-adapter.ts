import type { ManagedStartOptions, RuntimeAdapter } from '../runtime-adapter.js';
import { planCodexLaunch } from './codex-launch.js';
import { CodexAppServerSession } from './codex-session.js';

/** The managed runtime for `codex`: one app-server and one thread per actor generation. */
export const codexAppServerAdapter: RuntimeAdapter = {
  runtime: 'codex',
  plan(argv) {
    planCodexLaunch(argv);
  },
  start(options: ManagedStartOptions) {
    return CodexAppServerSession.start(planCodexLaunch(options.argv), options);
  },
};
