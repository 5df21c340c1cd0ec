import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import { freePort } from '../free-port.js';
import { until } from '../real-clis/test-support.js';
import { describeWithLocalRegistry, startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { cliReadmeCommands, copyForRelease, run, userEnv, writeReadmeCode } from './release-steps.js';
import { REPO_ROOT, exportTargets, publishablePackages, readPackageJson, workspacePackages } from './workspace-packages.js';

// A real release, locally: the changesets version + publish flow run on a copy of the built
// workspace into a Verdaccio on 127.0.0.1, then, in fresh directories outside the repository,
// what a user does with the result:
//   1. `npm i -g --prefix <tmp>` of @cccc/cli, then its README's session as written: `cccc daemon
//      start`, `cccc attach .`, a claude actor (the scripted fake agent on PATH as `claude`) whose
//      launch carries the hook settings naming the installed CLI and whose SessionStart hook
//      arrives, `cccc group start`, `cccc send` (confirmed by the agent's hook), and bare `cccc`
//      serving the Web and its browser app from the installed package;
//   2. a plain TypeScript project that installs the libraries, builds a custom client (ping,
//      send, events_stream, then the ledger) and every README's example with tsc, runs them;
//   3. the same project runs the ./testing contract suites of group-space, ipc-protocol, ledger and pty-runtime
//      with its own vitest.
// The repository itself is only read: versions are bumped in the copy, and nothing is installed
// globally outside the temp prefix. Every npm call uses this machine's npm cache, where the root
// postinstall left better-sqlite3's build (tools/cache-native-builds.mjs).

vi.setConfig({ testTimeout: 600_000, hookTimeout: 600_000 });

const published = publishablePackages();
const CHANGESET = join(REPO_ROOT, 'node_modules', '@changesets', 'cli', 'bin.js');
const CONSUMER_TEMPLATE = join(REPO_ROOT, 'tools', 'release', 'consumer');
/** Pins of the consumer project's own tools: this repository's (STACK.md). */
const ROOT_PINS = readPackageJson(REPO_ROOT).devDependencies!;

describeWithLocalRegistry('a release through a local registry, used from fresh directories', (verdaccio) => {
  const timings: Array<[string, number]> = [];
  const timed = async <T>(what: string, body: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    try {
      return await body();
    } finally {
      timings.push([what, (Date.now() - started) / 1000]);
    }
  };
  let startedAt = 0;
  let work = '';
  let registry: LocalRegistry | undefined;
  let npmCache = '';
  /** Package name → version, as `changeset version` left them in the copy. */
  const released = new Map<string, string>();
  const home = () => join(work, 'home');
  const prefix = () => join(work, 'prefix');
  const consumer = () => join(work, 'consumer');
  const scratchTmp = () => {
    mkdirSync(join(work, 'tmp'), { recursive: true });
    return join(work, 'tmp');
  };
  /** The two installs, started by beforeAll; each test awaits its own. */
  let globalCli: Promise<void>;
  let consumerBuilt: Promise<{ examples: string[]; suites: string[] }>;
  let groupId = '';

  /** `npm i -g --prefix <tmp>` of the released CLI, from an empty directory. */
  async function installGlobalCli(): Promise<void> {
    const fresh = join(work, 'fresh');
    mkdirSync(fresh, { recursive: true });
    const args = ['install', '-g', '--prefix', prefix(), '--registry', registry!.url, '--cache', npmCache, '--no-audit', '--no-fund'];
    await timed('npm i -g @cccc/cli', () => run('npm', [...args, `@cccc/cli@${released.get('@cccc/cli')}`], { cwd: fresh, env: userEnv(), timeout: 600_000 }));
  }

  /** The consumer project: the libraries from the registry, its own tools, then `tsc`. */
  async function buildConsumer(): Promise<{ examples: string[]; suites: string[] }> {
    cpSync(CONSUMER_TEMPLATE, consumer(), { recursive: true });
    const code = writeReadmeCode(consumer());
    const dependencies = Object.fromEntries([...released].filter(([name]) => name !== '@cccc/cli'));
    const devDependencies = { '@types/node': ROOT_PINS['@types/node'], typescript: ROOT_PINS['typescript'], vitest: ROOT_PINS['vitest'] };
    const pkg = { name: 'cccc-consumer', private: true, type: 'module', dependencies, devDependencies, overrides: { vite: ROOT_PINS['vite'] } };
    writeFileSync(join(consumer(), 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const env = userEnv();
    const args = ['install', '--registry', registry!.url, '--cache', npmCache, '--prefer-offline', '--no-audit', '--no-fund'];
    await timed('consumer npm install', () => run('npm', args, { cwd: consumer(), env, timeout: 600_000 }));
    await timed('consumer tsc', () => run(join(consumer(), 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: consumer(), env, timeout: 300_000 }));
    return code;
  }

  beforeAll(async () => {
    startedAt = Date.now();
    // The publish build: declarations in dist (npm test builds them; `npm start` leaves them out).
    const missing = published.flatMap((p) =>
      exportTargets(p.json)
        .filter((t) => !existsSync(join(p.dir, t.target)))
        .map((t) => `${p.name}: ${t.target}`),
    );
    if (missing.length > 0) throw new Error(`not the publish build (run \`npm run build\`); missing:\n${missing.join('\n')}`);

    work = realpathSync(mkdtempSync(join(tmpdir(), 'cccc-release-')));
    const npmConfig = async (key: string) => (await run('npm', ['config', 'get', key], { cwd: REPO_ROOT, timeout: 30_000 })).stdout.trim();
    const upstream = await npmConfig('registry');
    npmCache = await npmConfig('cache');
    const caFile = (await npmConfig('cafile')).replace(/^(null|undefined)$/, '') || undefined;
    registry = await timed('start Verdaccio', () => startLocalRegistry({ bin: verdaccio.bin, dir: join(work, 'registry'), upstream, caFile }));

    const copy = join(work, 'release');
    copyForRelease(copy);
    await timed('changeset version', () => run(process.execPath, [CHANGESET, 'version'], { cwd: copy, env: userEnv(), timeout: 120_000 }));
    for (const pkg of workspacePackages(copy)) if (!pkg.json.private) released.set(pkg.name, pkg.json.version);
    // Only this registry can take the publish: its URL, and an npmrc holding nothing but its token.
    const publishEnv = userEnv({ npm_config_registry: registry.url, npm_config_userconfig: registry.publishUserconfig });
    await timed('changeset publish', () => run(process.execPath, [CHANGESET, 'publish', '--no-git-tag'], { cwd: copy, env: publishEnv, timeout: 240_000 }));

    // One install at a time (both are CPU-bound), but the consumer's runs while the CLI test
    // waits on its daemon and agent; it reuses the metadata the first install fetched.
    globalCli = installGlobalCli();
    consumerBuilt = globalCli.then(buildConsumer, buildConsumer);
    // Awaited by the tests; a failure must not also surface as an unhandled rejection.
    globalCli.catch(() => undefined);
    consumerBuilt.catch(() => undefined);
  });

  afterAll(async () => {
    await Promise.allSettled([globalCli, consumerBuilt]);
    if (work && existsSync(join(prefix(), 'bin', 'cccc'))) {
      await run(join(prefix(), 'bin', 'cccc'), ['daemon', 'stop'], { env: userEnv({ CCCC_HOME: home() }), timeout: 30_000 }).catch(() => undefined);
    }
    await registry?.close();
    if (work) rmSync(work, { recursive: true, force: true });
    const total = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.log(`release e2e: ${total} s in all; ${timings.map(([what, s]) => `${what} ${s.toFixed(1)} s`).join(', ')}`);
  });

  it('publishes every publishable package at the version changesets gave it, with caret ranges between ours', async () => {
    expect([...released.keys()].sort()).toEqual(published.map((p) => p.name));
    for (const [name, version] of released) {
      expect(version, name).not.toBe(published.find((p) => p.name === name)!.json.version);
      const packument = (await (await fetch(`${registry!.url}${name.replace('/', '%2f')}`)).json()) as {
        'dist-tags': Record<string, string>;
        versions: Record<string, { dependencies?: Record<string, string> }>;
      };
      expect(packument['dist-tags'].latest, name).toBe(version);
      for (const [dep, range] of Object.entries(packument.versions[version]!.dependencies ?? {})) {
        if (dep.startsWith('@cccc/')) expect(range, `${name} → ${dep}`).toBe(`^${released.get(dep)}`);
      }
    }
  });

  it("installs @cccc/cli globally into a temp prefix and runs its README's session: a hooked claude actor, a delivered send, the Web", async () => {
    await globalCli;
    const cliDir = join(prefix(), 'lib', 'node_modules', '@cccc', 'cli');
    expect(readPackageJson(cliDir).version).toBe(released.get('@cccc/cli'));
    expect(readPackageJson(join(cliDir, 'node_modules', '@cccc', 'daemon')).version).toBe(released.get('@cccc/daemon'));
    const entry = realpathSync(join(cliDir, 'bin', 'cccc.js'));
    expect(realpathSync(join(prefix(), 'bin', 'cccc'))).toBe(entry);

    // A user's shell: the installed cccc, and a `claude` (the scripted fake agent) on PATH.
    const agents = join(work, 'agents-bin');
    installFakeAgentAs(agents, 'claude');
    const env = userEnv({ CCCC_HOME: home(), CCCC_WEB_PORT: String(await freePort()) }, [join(prefix(), 'bin'), agents]);
    const project = join(work, 'project');
    mkdirSync(project, { recursive: true });

    // The README's lines as written; the first (the install) ran above, into the temp prefix.
    const [install, ...session] = cliReadmeCommands();
    expect(install).toBe('npm install -g @cccc/cli');
    expect(session.slice(0, 2)).toEqual(['cccc daemon start', 'cccc attach .']);
    expect(session.at(-1), 'the last line serves the Web').toBe('cccc');
    await timed('the CLI README session', async () => {
      for (const command of session.slice(0, -1)) await run('sh', ['-c', command], { cwd: project, env, timeout: 60_000 });
    });

    const client = new DaemonClient({ home: home() });
    const ping = await client.call('ping', {});
    expect(ping).toMatchObject({ implementation: 'cccc-ts', version: released.get('@cccc/daemon'), executable: entry });
    const { groups } = await client.call('groups', {});
    expect(groups).toHaveLength(1);
    groupId = groups[0]!.group_id;

    const key = actorHookKey(groupId, 'lead');
    const launchFile = join(home(), 'daemon', 'runtime-hook-launch', `${key}.json`);
    const launch = await until(() => (existsSync(launchFile) ? (JSON.parse(readFileSync(launchFile, 'utf8')) as { pid: number; hook_enabled: boolean }) : null), 'the launch record', 60_000);
    expect(launch.hook_enabled).toBe(true);
    const argv = readFileSync(`/proc/${launch.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--settings');
    const settings = JSON.parse(argv[argv.indexOf('--settings') + 1]!) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(settings.hooks['SessionStart']!.at(-1)!.hooks[0]!.command).toBe(`'${process.execPath}' '${entry}' hook claude-state`);
    const stateFile = join(home(), 'daemon', 'claude-hook-state', `${key}.json`);
    await until(() => existsSync(stateFile) && (JSON.parse(readFileSync(stateFile, 'utf8')) as { session_id?: string }).session_id, 'SessionStart through the installed hook', 60_000);

    // The README's `cccc send` reached the agent, and the agent's hook confirmed it.
    const { events } = JSON.parse((await run('cccc', ['tail', '-n', '50', '--json'], { cwd: project, env, timeout: 60_000 })).stdout) as {
      events: Array<{ id: string; kind: string; data: { text?: string } }>;
    };
    const sent = events.find((e) => e.kind === 'chat.message' && e.data.text === 'plan the release');
    expect(sent, 'the README\'s message in the ledger').toBeDefined();
    const status = await until(async () => {
      const { statuses } = await client.call('ledger_statuses', { group_id: groupId, event_ids: [sent!.id] });
      return statuses[sent!.id]?.['lead']?.delivery_confirmation ? statuses[sent!.id]!['lead'] : null;
    }, 'the delivery, confirmed by the agent hook', 90_000);
    expect(status).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });

    // Bare `cccc`: the Web, with the browser app shipped in @cccc/web's dist/app; Ctrl-C stops it.
    const web = spawn('cccc', [], { cwd: project, env, stdio: 'ignore' });
    try {
      const url = `http://127.0.0.1:${env.CCCC_WEB_PORT}/`;
      const page = await until(() => fetch(url).then((r) => (r.ok ? r.text() : null), () => null), 'the Web page', 60_000);
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
      expect(asset, 'the page loads the app bundle').toBeDefined();
      expect((await fetch(new URL(asset!, url))).status).toBe(200);
      expect((await fetch(new URL('/api/v1/ping', url))).status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => web.once('exit', resolve));
      web.kill('SIGINT');
      await exited;
    }
    expect((await client.call('ping', {})).pid, 'the daemon keeps running').toBe(ping.pid);
  });

  it('a plain TypeScript project installs the libraries, builds a custom client and every README example, and runs them', async () => {
    const { examples } = await consumerBuilt;
    expect(examples.length, 'an example per published library').toBe(published.length - 1);
    for (const [name, version] of released) {
      if (name !== '@cccc/cli') expect(readPackageJson(join(consumer(), 'node_modules', name)).version, name).toBe(version);
    }
    expect(groupId, 'the global CLI test attached a group').toMatch(/^g_/);
    // The examples make temp dirs of their own: inside the test's, which is removed at the end.
    const env = userEnv({ CCCC_HOME: home(), TMPDIR: scratchTmp() });

    const out = await run(process.execPath, ['dist/src/client.js', groupId, 'lead'], { cwd: consumer(), env, timeout: 60_000 });
    const report = JSON.parse(out.stdout.trim().split('\n').pop()!) as { ping: { version: string }; streamed: boolean; stored: { kind: string; text: string }; kinds: string[] };
    expect(report.ping.version).toBe(released.get('@cccc/daemon'));
    expect(report.streamed, 'the send arrived on events_stream').toBe(true);
    expect(report.stored).toMatchObject({ kind: 'chat.message', text: expect.stringContaining('hello from a custom client') });
    expect(report.kinds).toEqual(expect.arrayContaining(['group.create', 'actor.add', 'chat.message']));

    // Each README's example, as written, against the installed packages (ipc-protocol's talks to
    // the daemon of CCCC_HOME; the others use temp dirs of their own).
    const outputs = await timed('README examples', () =>
      Promise.all(examples.map((example) => run(process.execPath, [`dist/src/readme/${example}.js`], { cwd: consumer(), env, timeout: 60_000 }))),
    );
    outputs.forEach((result, i) => expect(result.stdout.trim(), `${examples[i]} README example prints its result`).not.toBe(''));
  });

  it("runs the ./testing contract suites with the consumer's own vitest, against its own router, stores and node-pty", async () => {
    const { suites } = await consumerBuilt;
    expect(suites.sort()).toEqual(['group-space', 'ipc-protocol', 'ledger', 'pty-runtime']);
    // The fake agent of pty-runtime's ./testing is the copy the installed package ships.
    expect(readdirSync(join(consumer(), 'node_modules', '@cccc', 'pty-runtime', 'dist', 'fake-agent'))).toContain('fake-agent.mjs');
    const vitest = join(consumer(), 'node_modules', '.bin', 'vitest');
    await timed('consumer contract suites', () =>
      run(vitest, ['run', '--reporter=json', '--outputFile=vitest.json'], {
        cwd: consumer(),
        env: userEnv({ CCCC_HOME: home(), TMPDIR: scratchTmp() }),
        timeout: 300_000,
      }),
    );
    const results = JSON.parse(readFileSync(join(consumer(), 'vitest.json'), 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[] }> }>;
    };
    expect(results.numFailedTests).toBe(0);
    const described = new Set(results.testResults.flatMap((f) => f.assertionResults.map((a) => a.ancestorTitles[0])));
    expect([...described].sort()).toEqual([
      'IPC v1 contract: my router',
      'IPC v1 contract: the CCCC_HOME daemon',
      'LedgerStore contract: file store',
      'LedgerStore contract: my store',
      'PtySession contract: node-pty',
      'SpaceProvider contract: local provider',
    ]);
    expect(results.numPassedTests).toBeGreaterThan(50);
  });
});
