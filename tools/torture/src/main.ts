// `npm run torture [-- --profile short|long] [-- --only <family>...]`: the torture suite of
// issue 20. One fresh daemon (a real `cccc daemon run` process) per case family in a temp
// CCCC_HOME under the system temp dir, loopback and unix sockets only; every process it starts is
// killed before it exits. Prints one line per case and ends with exactly `N passed, N failed`.
import { killEverything } from './daemon-process.js';
import { FAMILIES } from './families.js';
import { PROFILES, type Profile } from './profile.js';
import { Runner } from './runner.js';
import { removeEverySandbox } from './sandbox.js';

function parseArgs(argv: readonly string[]): { profile: Profile; only: string[] } {
  let profile: Profile = PROFILES.short;
  const only: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
    if (arg.startsWith('--profile')) {
      if (value !== 'short' && value !== 'long') throw new Error(`--profile must be short or long, not ${value}`);
      profile = PROFILES[value];
      if (!arg.includes('=')) i++;
    } else if (arg.startsWith('--only')) {
      only.push(...(value ?? '').split(','));
      if (!arg.includes('=')) i++;
    } else throw new Error(`unknown argument ${arg} (use --profile short|long, --only <family>[,<family>])`);
  }
  return { profile, only };
}

// Whatever ends this process, the daemons it started end with it, and their temp homes go.
process.on('exit', () => {
  killEverything();
  removeEverySandbox();
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    console.log(`# ${signal}: killing every daemon this run started`);
    process.exit(1);
  });
}

const { profile, only } = parseArgs(process.argv.slice(2));
const families = only.length > 0 ? FAMILIES.filter((f) => only.includes(f.name)) : FAMILIES;
if (families.length === 0) throw new Error(`no family named ${only.join(', ')}; families: ${FAMILIES.map((f) => f.name).join(', ')}`);
const runner = new Runner();
const started = performance.now();
// A hung family must not hang CI: past the profile's deadline everything started is killed.
setTimeout(() => {
  runner.fail(`deadline of ${profile.deadlineMs / 1000} s for profile ${profile.name}`, new Error('the run did not finish; every daemon it started was killed'));
  killEverything();
  console.log(`${runner.passed} passed, ${runner.failed} failed`);
  process.exit(1);
}, profile.deadlineMs).unref();
console.log(`# torture, profile ${profile.name} (node ${process.version}, ${new Date().toISOString()}): ${families.map((f) => f.name).join(', ')}`);
for (const family of families) {
  const familyStarted = performance.now();
  try {
    await family.run(runner, profile);
  } catch (error) {
    runner.fail(`${family.name} (family setup or teardown)`, error);
  }
  console.log(`# ${family.name}: ${((performance.now() - familyStarted) / 1000).toFixed(1)} s`);
}
killEverything();
console.log(`# total ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`${runner.passed} passed, ${runner.failed} failed`);
process.exitCode = runner.failed > 0 ? 1 : 0;

