// `npm run demo`: a working team without a real agent CLI. Two actors, `lead` and `peer1`, run
// the scripted fake agent (tools/fake-agent) in <CCCC_HOME>/demo-workspace; the lead gets a first
// message, and start.mjs then serves the Web on it. Every step is a plain `cccc` command, the
// same a person would type, so the demo shows nothing the CLI cannot do. Running it again reuses
// the group and its actors.
//
// Why a repository script and not a `cccc demo` command: the fake agent is a developer tool of
// this checkout (tools/), which the published CLI must not depend on; `npm run demo` sits next to
// the `npm start` a newcomer has just run.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveCcccHome } from '@cccc/ipc-protocol/node';

const CLI = fileURLToPath(new URL('../apps/cli/bin/cccc.js', import.meta.url));
const FAKE_AGENT = fileURLToPath(new URL('./fake-agent/fake-agent.mjs', import.meta.url));

function cccc(args) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`cccc ${args.join(' ')} failed (exit ${run.status}): ${run.stderr}${run.stdout}`);
  return run.stdout;
}
const json = (args) => JSON.parse(cccc([...args, '--json']));

/** Set the demo team up and return its group id; the daemon is started when none runs. */
export function setUpDemoTeam() {
  cccc(['daemon', 'start']);
  // A scope of its own inside the home (made by `daemon start` above), so the demo never shares
  // a group with a directory the user attaches, and leaves nothing behind outside CCCC_HOME.
  const scope = join(resolveCcccHome(), 'demo-workspace');
  mkdirSync(scope, { recursive: true, mode: 0o700 });
  const { group_id: group } = json(['attach', scope]);
  const existing = new Set(json(['actor', 'list', '--group', group]).actors.map((a) => a.id));
  for (const [id, title] of [['lead', 'Lead (fake agent)'], ['peer1', 'Peer (fake agent)']]) {
    if (existing.has(id)) continue;
    cccc(['actor', 'add', id, '--group', group, '--runtime', 'custom', '--title', title, '--arg', process.execPath, '--arg', FAKE_AGENT]);
  }
  cccc(['group', 'start', '--group', group]);
  cccc(['send', 'Welcome to the CCCC demo: plan the release with peer1.', '--group', group, '--to', 'lead', '--mode', 'request-reply']);
  return group;
}
