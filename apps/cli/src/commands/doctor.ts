import { statSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { HomeLayout } from '@cccc/groups/home';
import { resolveCcccHome } from '@cccc/ipc-protocol/call';
import { probeDaemon } from '../daemon-process.js';
import { printJson, printLines } from '../output.js';
import { runtimeRows } from './runtime.js';

type Status = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  readonly check: string;
  readonly status: Status;
  readonly detail: string;
}

const MIN_NODE_MAJOR = 20;

const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

/** A private directory: only its owner may enter it (secrets and state must not leak). */
function privateDir(check: string, path: string, required: boolean): DoctorCheck {
  const st = statOf(path);
  if (!st) return { check, status: required ? 'fail' : 'ok', detail: `${path} does not exist${required ? '' : ' (created on first use)'}` };
  if (!st.isDirectory()) return { check, status: 'fail', detail: `${path} is not a directory` };
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return { check, status: 'fail', detail: `${path} is owned by uid ${st.uid}, not you` };
  if ((st.mode & 0o077) !== 0) return { check, status: 'warn', detail: `${path} is mode ${octal(st.mode)}; run chmod 700 ${path}` };
  return { check, status: 'ok', detail: `${path} (mode ${octal(st.mode)})` };
}

/** Secret files must be readable by their owner only. */
function secretFiles(dir: string): DoctorCheck {
  const loose: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 4) return;
    for (const entry of (() => {
      try {
        return readdirSync(d, { withFileTypes: true });
      } catch {
        return [];
      }
    })()) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p, depth + 1);
      else if (entry.isFile() && ((statOf(p)?.mode ?? 0) & 0o077) !== 0) loose.push(p);
    }
  };
  walk(dir, 0);
  return loose.length === 0
    ? { check: 'secret files', status: 'ok', detail: 'owner-only' }
    : { check: 'secret files', status: 'fail', detail: `readable by others: ${loose.slice(0, 5).join(', ')}${loose.length > 5 ? ', ...' : ''}; run chmod 600` };
}

export async function runDoctor(home: string): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const major = Number(process.versions.node.split('.')[0]);
  checks.push({
    check: 'node',
    status: major >= MIN_NODE_MAJOR ? 'ok' : 'fail',
    detail: `v${process.versions.node}${major >= MIN_NODE_MAJOR ? '' : ` (needs >= ${MIN_NODE_MAJOR})`}`,
  });
  const rows = (await runtimeRows()).filter((r) => r.binary);
  const installed = rows.filter((r) => r.installed).map((r) => r.runtime);
  checks.push({
    check: 'runtimes',
    status: installed.length > 0 ? 'ok' : 'warn',
    detail: installed.length > 0 ? `installed: ${installed.join(', ')}` : 'no agent CLI found on PATH (custom actors still work)',
  });
  const ping = await probeDaemon(home);
  checks.push(
    ping
      ? { check: 'daemon', status: 'ok', detail: `${ping.implementation} ${ping.version} pid ${ping.pid}, ipc v${ping.ipc_v}` }
      : { check: 'daemon', status: 'warn', detail: 'not running (start it with `cccc daemon start`)' },
  );
  const layout = new HomeLayout(home);
  checks.push(privateDir('home', home, false));
  checks.push(privateDir('state', layout.stateDir, false));
  checks.push(privateDir('secrets', layout.secretsDir, false));
  checks.push(secretFiles(layout.secretsDir));
  return checks;
}

/** `cccc doctor`: node, installed runtimes, daemon health and home permissions. Exit 1 on a failure. */
export function registerDoctorCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('doctor')
    .description('check this machine: node, installed runtimes, daemon health, CCCC_HOME permissions')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const home = resolveCcccHome();
      const checks = await runDoctor(home);
      const failed = checks.some((c) => c.status === 'fail');
      if (opts.json) printJson({ home, ok: !failed, checks });
      else printLines([`CCCC_HOME ${home}`, ...checks.map((c) => `${c.status.padEnd(4)}  ${c.check.padEnd(12)} ${c.detail}`)]);
      setExit(failed ? 1 : 0);
    });
}
