import { execFile, type ExecFileOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { quickStartBlock, sectionCodeBlock } from '../readme-block.js';
import { REPO_ROOT, publishablePackages, workspacePackages, type WorkspacePackage } from './workspace-packages.js';

// The steps of the release test (release.e2e.test.ts) that are not assertions: running commands
// as a user would, copying what the release flow reads, and turning README code into files.

export interface Run {
  stdout: string;
  stderr: string;
}

/** Run a command; a failure throws with its output, so the test report says what npm said. */
export function run(command: string, args: string[], options: ExecFileOptions & { timeout: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', ...options }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}`.slice(-8000)));
      else resolve({ stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** npm's own config files stay: they hold this machine's settings (nodedir for native builds). */
const KEPT_NPM_VARIABLES = new Set(['npm_config_userconfig', 'npm_config_globalconfig']);

/**
 * The environment of a user's shell: no npm script variables (under `npm test` they name this
 * repository as the prefix), no vitest markers, no CCCC_* of this run, and no PATH entry inside
 * this repository or any node_modules (npm test puts the repository's node_modules/.bin first).
 * `pathFirst` goes before the rest.
 */
export function userEnv(extra: NodeJS.ProcessEnv = {}, pathFirst: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (KEPT_NPM_VARIABLES.has(key.toLowerCase())) env[key] = value;
    else if (/^(npm_|vitest|cccc_)/i.test(key) || ['INIT_CWD', 'NODE_ENV', 'TEST'].includes(key)) continue;
    else env[key] = value;
  }
  const path = (process.env.PATH ?? '').split(delimiter).filter((p) => p && !p.startsWith(REPO_ROOT) && !p.includes('node_modules'));
  env.PATH = [...pathFirst, dirname(process.execPath), ...path].join(delimiter);
  return { ...env, ...extra };
}

/**
 * What the release flow reads and publishes, copied to `dest`: the root package.json and
 * .changeset/, and per workspace package its package.json, README, CHANGELOG and what its `files`
 * name (dist, bin); plus a patch changeset for every published package, so there is a release
 * even when the repository has no pending changeset.
 */
export function copyForRelease(dest: string): void {
  mkdirSync(dest, { recursive: true });
  cpSync(join(REPO_ROOT, 'package.json'), join(dest, 'package.json'));
  cpSync(join(REPO_ROOT, '.changeset'), join(dest, '.changeset'), { recursive: true });
  for (const pkg of workspacePackages()) {
    const to = join(dest, pkg.relDir);
    mkdirSync(to, { recursive: true });
    for (const name of ['package.json', 'README.md', 'CHANGELOG.md', ...(pkg.json.private ? [] : (pkg.json.files ?? []))]) {
      if (existsSync(join(pkg.dir, name))) cpSync(join(pkg.dir, name), join(to, name), { recursive: true });
    }
  }
  const bumps = publishablePackages().map((p) => `"${p.name}": patch`);
  writeFileSync(join(dest, '.changeset', 'release-e2e.md'), `---\n${bumps.join('\n')}\n---\n\nThe release test's own bump.\n`);
}

const readmeOf = (pkg: WorkspacePackage): string => readFileSync(join(pkg.dir, 'README.md'), 'utf8');
const shortName = (pkg: WorkspacePackage): string => pkg.name.slice('@cccc/'.length);

/**
 * Each published library's README example (`## Install`, its ts block) as
 * `<consumer>/src/readme/<name>.ts`, and each `## Contract suite …` block as
 * `<consumer>/test/<name>.contract.test.ts`. Returns the names written.
 */
export function writeReadmeCode(consumer: string): { examples: string[]; suites: string[] } {
  const examples: string[] = [];
  const suites: string[] = [];
  mkdirSync(join(consumer, 'src', 'readme'), { recursive: true });
  mkdirSync(join(consumer, 'test'), { recursive: true });
  for (const pkg of publishablePackages()) {
    if (pkg.json.bin) continue; // the CLI: its example is a shell session (cliReadmeCommands)
    const readme = readmeOf(pkg);
    writeFileSync(join(consumer, 'src', 'readme', `${shortName(pkg)}.ts`), `${sectionCodeBlock(readme, '## Install', 'ts')}\n`);
    examples.push(shortName(pkg));
    const contract = readme.split('\n').find((line) => line.startsWith('## Contract suite'));
    if (!contract) continue;
    writeFileSync(join(consumer, 'test', `${shortName(pkg)}.contract.test.ts`), `${sectionCodeBlock(readme, contract, 'ts')}\n`);
    suites.push(shortName(pkg));
  }
  return { examples, suites };
}

/** The commands of @cccc/cli's README example (`## Install`, its sh block), comments dropped. */
export function cliReadmeCommands(): string[] {
  const cli = publishablePackages().find((p) => p.name === '@cccc/cli')!;
  return quickStartBlock(readmeOf(cli), '## Install').map((line) => line.command);
}
