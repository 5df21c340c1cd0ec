import type { ManagedStartOptions, RuntimeAdapter } from '../runtime-adapter.js';
import { AcpSession } from './acp-session.js';
import { checkOpencodeVersion, KILO_FLAVOR, opencodeAcpLaunch, planOpencodeLaunch } from './opencode-launch.js';

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

/**
 * The managed runtime for `kilo` (§8.4: the same managed-session ownership as opencode: `kilo acp`
 * with its authenticated loopback backend, `kilo attach` to the exact session). The spec names no
 * Kilo version floor, so none is checked. Verified on the real Kilo CLI (@kilocode/cli 7.7.7:
 * tools/src/real-clis/kilo-acp.test.ts, daemon-kilo-managed.test.ts).
 */
export const kiloAcpAdapter: RuntimeAdapter = {
  runtime: 'kilo',
  plan(argv) {
    planOpencodeLaunch(argv, KILO_FLAVOR);
  },
  start(options: ManagedStartOptions) {
    const plan = planOpencodeLaunch(options.argv, KILO_FLAVOR);
    return AcpSession.start(opencodeAcpLaunch(plan, options.cwd, KILO_FLAVOR), options);
  },
};
