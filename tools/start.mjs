#!/usr/bin/env node
// `npm start` / `npm run demo`: build what running CCCC needs, then run bare `cccc` (the daemon
// if needed + the Web). Plain Node, no build step: it runs before anything is built.
//
// "What running needs" is the cli project and its dependencies (every library, the daemon, the
// Web server with its browser app, the cli's hook bundles, the ledger's worker file), built with
// CCCC_BUILD_DTS=0: no type declarations, which are most of a full build's time and which only
// the library/publish build (`npm run build`, `npm test`) needs. tools/ is not built at all.
//
// Options (before any cccc argument): --demo first sets up a team of two scripted fake agents
// (tools/demo-team.mjs); --no-build runs what is already built.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const take = (flag) => (args[0] === flag || args[1] === flag ? (args.splice(args.indexOf(flag), 1), true) : false);
const demo = take('--demo');
const build = !take('--no-build');

if (build) await buildToRun();

if (demo) {
  const { setUpDemoTeam } = await import('./demo-team.mjs');
  const group = setUpDemoTeam();
  const port = process.env.CCCC_WEB_PORT || '8848';
  process.stdout.write(`Demo team ready: lead and peer1 (scripted fake agents) in ${group}.\n  open    http://127.0.0.1:${port}/?group=${group}\n`);
}

// Ctrl-C in a terminal reaches the whole foreground process group, so cccc gets it directly and
// this process ignores it (forwarding it too would make cccc's second SIGINT fatal). SIGTERM and
// SIGHUP, sent to this process alone, are passed on. It leaves with cccc's exit code.
const cccc = spawn(process.execPath, [join(root, 'apps', 'cli', 'bin', 'cccc.js'), ...args], { stdio: 'inherit' });
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => cccc.kill(signal));
cccc.on('exit', (exitCode, signal) => process.exit(exitCode ?? (signal ? 1 : 0)));

async function buildToRun() {
  const started = performance.now();
  process.stdout.write('Building CCCC to run it (no type declarations; `npm run build` makes those)...\n');
  // node_modules/.bin/nx is npm's link to Nx's own bin, wherever the nx package keeps it.
  const nx = spawn(process.execPath, [join(root, 'node_modules', '.bin', 'nx'), 'run', '@cccc/cli:build', '--output-style=static'], {
    cwd: root,
    env: { ...process.env, CCCC_BUILD_DTS: '0', NX_DAEMON: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The build's own output is long; it is shown only when the build fails.
  let log = '';
  nx.stdout.on('data', (c) => (log += c));
  nx.stderr.on('data', (c) => (log += c));
  const code = await new Promise((resolve) => nx.on('close', resolve));
  if (code !== 0) {
    process.stderr.write(`${log}\nnpm start: the build failed (exit ${code}); its output is above.\n`);
    process.exit(typeof code === 'number' ? code : 1);
  }
  process.stdout.write(`Built in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
}
